// Runs binaryen's wasm-opt (the npm package pinned in tools/package.json, installed by
// scripts/install-tools.sh) over each wasm file of a release build, then rewrites every `integrity`
// attribute of index.html from the files' new bytes. Trunk's own wasm-opt step stays off
// (data-wasm-opt="0"): it would look for a wasm-opt on PATH and, offline, fail without one; this way
// a plain `trunk build --release` works wherever `make tools` has run, and nothing is downloaded.
// Debian's binaryen 108 cannot read the wasm current Rust emits; the npm build is binaryen 132.
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('wasm-opt: TRUNK_STAGING_DIR is not set (run me as a Trunk post_build hook)');
  process.exit(1);
}
if (process.env.TRUNK_PROFILE !== 'release') {
  console.log('wasm-opt: not a release build, skipped');
  process.exit(0);
}
// For quick local iterations only (it takes a minute or two on two cores); never in `make`.
if (process.env.FAULTLINE_SKIP_WASM_OPT === '1') {
  console.log('wasm-opt: skipped (FAULTLINE_SKIP_WASM_OPT=1)');
  process.exit(0);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wasmOpt = join(root, 'tools', 'node_modules', 'binaryen', 'bin', 'wasm-opt');
if (!existsSync(wasmOpt)) {
  console.error(`wasm-opt: ${wasmOpt} is missing: run scripts/install-tools.sh (or make tools)`);
  process.exit(1);
}
// The page's wasm: -Oz, the smallest code (measured against -Os in `make bench`'s size table). The
// engine worker's: -O3, speed (it loads lazily and does the parsing; `make bench` shows both effects).
// The features are the ones rustc's wasm32 target enables by default.
const level = (name) => (name.startsWith('faultline-worker') ? '-O3' : '-Oz');
const FEATURES = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-reference-types', '--enable-multivalue', '--enable-mutable-globals'];
const run = promisify(execFile);
const files = readdirSync(dir).filter((f) => f.endsWith('.wasm'));
// The unoptimised files are kept for `make bench`'s size table (before/after).
const kept = join(root, 'target', 'wasm-opt-before');
mkdirSync(kept, { recursive: true });
await Promise.all(files.map(async (name) => {
  const path = join(dir, name);
  copyFileSync(path, join(kept, name.replace(/-[0-9a-f]{8,}_bg\.wasm$/, '_bg.wasm')));
  const before = statSync(path).size;
  const started = Date.now();
  await run(process.execPath, [wasmOpt, level(name), ...FEATURES, path, '-o', `${path}.opt`], { maxBuffer: 1 << 26 });
  renameSync(`${path}.opt`, path);
  const after = statSync(path).size;
  console.log(`wasm-opt: ${name} ${before} -> ${after} bytes (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}));

// Subresource integrity: Trunk hashed the files before this step changed them.
const indexPath = join(dir, 'index.html');
const html = readFileSync(indexPath, 'utf8');
const fixed = html.replace(/<link\b[^>]*>/g, (tag) => {
  const href = tag.match(/\shref="([^"]+)"/)?.[1];
  const integrity = tag.match(/\sintegrity="(sha256|sha384|sha512)-[^"]*"/);
  if (!href || !integrity) return tag;
  const file = join(dir, href.replace(/^\.\//, ''));
  if (!existsSync(file)) return tag;
  const digest = createHash(integrity[1]).update(readFileSync(file)).digest('base64');
  return tag.replace(integrity[0], ` integrity="${integrity[1]}-${digest}"`);
});
writeFileSync(indexPath, fixed);
