// Trunk post_build hook (Trunk.toml). Trunk runs the hooks of one stage concurrently, so the steps that
// depend on each other run here, in order, over the staging directory:
//   1. scripts/wasm-opt.mjs     shrinks each wasm file with binaryen's wasm-opt (release builds only)
//                               and rewrites the `integrity` attributes Trunk wrote for the old bytes;
//   2. scripts/csp-hashes.mjs   puts the inline loader's hash into the Content-Security-Policy;
//   3. scripts/sw-manifest.mjs  names every file of this build, and the build itself, in sw.js.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
for (const step of ['wasm-opt.mjs', 'csp-hashes.mjs', 'sw-manifest.mjs']) {
  try {
    execFileSync(process.execPath, [join(here, step)], { stdio: 'inherit' });
  } catch {
    process.exit(1); // the step said why
  }
}
