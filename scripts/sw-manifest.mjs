// Writes into the staged sw.js the list of this build's files (for the offline cache to fetch at
// install) and a build id (the cache's name): the worker's files are not content-hashed by Trunk, so
// a new build must be a new cache, and a new sw.js is what makes the browser install it.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('sw-manifest: TRUNK_STAGING_DIR is not set (run me as a Trunk post_build hook)');
  process.exit(1);
}
const swPath = join(dir, 'sw.js');
const sw = readFileSync(swPath, 'utf8');
// Not the service worker itself, nor the static host's headers file (never fetched by the page).
const files = readdirSync(dir).filter((f) => f !== 'sw.js' && f !== '_headers').sort();
const hash = createHash('sha256');
for (const file of files) hash.update(file).update(readFileSync(join(dir, file)));
const build = hash.digest('hex').slice(0, 16);
if (!sw.includes("'BUILD_ID'") || !sw.includes('/* FILES */ []')) {
  console.error("sw-manifest: sw.js lacks 'BUILD_ID' or /* FILES */ []");
  process.exit(1);
}
writeFileSync(swPath, sw.replace("'BUILD_ID'", `'${build}'`).replace('/* FILES */ []', JSON.stringify(files)));
console.log(`sw-manifest: ${files.length} files, build ${build}`);
