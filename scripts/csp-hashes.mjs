// Trunk post_build hook: puts the SHA-256 of each inline <script> Trunk generated (its wasm loader,
// and the live-reload client under `trunk serve`) into the Content-Security-Policy of index.html and
// of _headers, in place of the placeholder INLINE_SCRIPT_HASHES. Trunk writes the loader inline and its
// text names the hashed wasm file, so the hash is known only after the build; with it, the policy
// allows exactly that script and no other inline script.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('csp-hashes: TRUNK_STAGING_DIR is not set (run me as a Trunk post_build hook)');
  process.exit(1);
}
const PLACEHOLDER = 'INLINE_SCRIPT_HASHES';
const indexPath = join(dir, 'index.html');
const html = readFileSync(indexPath, 'utf8');
const hashes = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)]
  .map(([, body]) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
if (!html.includes(PLACEHOLDER)) {
  console.error(`csp-hashes: no ${PLACEHOLDER} in index.html's Content-Security-Policy`);
  process.exit(1);
}
const sources = [...new Set(hashes)].join(' ');
writeFileSync(indexPath, html.replaceAll(PLACEHOLDER, sources));
const headersPath = join(dir, '_headers');
if (existsSync(headersPath)) {
  writeFileSync(headersPath, readFileSync(headersPath, 'utf8').replaceAll(PLACEHOLDER, sources));
}
console.log(`csp-hashes: ${hashes.length} inline script(s) allowed by hash`);
