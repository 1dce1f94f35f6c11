// Where the engine's time goes as WebAssembly (a developer's tool, not a test; `make wasm-profile`,
// which builds the wasm first). The engine's benchmark (crates/engine/examples/bench_ingest.rs),
// built for wasm32-wasip1 with the worker's profile, runs in Node's WASI under V8's CPU profiler: the
// same compiler and wasm code generation as the app's worker in Chromium, with function names.
// Prints the benchmark's own figures, then the functions by self time. Profiles of the native build
// (callgrind) miss what only wasm pays: 16-byte SIMD at most (and only where `memchr` or LLVM's
// vectoriser uses it; std's own code is prebuilt without it), 32-bit pointers, dlmalloc instead of
// glibc's allocator.
//
//   node scripts/wasm-profile.mjs BENCH.wasm DUMP...   (BENCH_RUNS, default 3; TOP, default 30)
//
// It runs the benchmark in a child Node with `--cpu-prof` (and `--no-incremental-marking`: Node 20's
// incremental marker crashes on a wasm memory this large). Node's own garbage collector shows up as
// "(garbage collector)": V8 in Node counts wasm memory growth as external memory; Chromium's worker
// hardly collects during an analysis (its traces show a few ms), so that line is Node's, not the app's.
import { WASI } from 'node:wasi';
import { spawnSync } from 'node:child_process';
import { readFile, readdir, rm, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

if (process.env.WASM_PROFILE_CHILD) {
  // The child: run the benchmark's wasm under WASI, nothing else.
  const [wasmPath, ...dumps] = process.argv.slice(2);
  const wasi = new WASI({
    version: 'preview1',
    args: ['bench_ingest', ...dumps],
    // BENCH_FIGURES: the benchmark appends its figures there (an absolute path; `/` is preopened).
    env: { BENCH_RUNS: process.env.BENCH_RUNS ?? '3', ...(process.env.BENCH_FIGURES ? { BENCH_FIGURES: process.env.BENCH_FIGURES } : {}) },
    preopens: { '/': '/' },
  });
  const module = await WebAssembly.compile(await readFile(wasmPath));
  wasi.start(await WebAssembly.instantiate(module, wasi.getImportObject()));
  process.exit(0);
}

const [wasmPath, ...dumps] = process.argv.slice(2);
if (!wasmPath || dumps.length === 0) {
  console.error('usage: node scripts/wasm-profile.mjs BENCH.wasm DUMP...');
  process.exit(2);
}
const top = Number(process.env.TOP ?? 30);
const dir = await mkdtemp(join(tmpdir(), 'wasm-profile-'));
const child = spawnSync(process.execPath, [
  '--no-warnings', '--no-incremental-marking', '--cpu-prof', '--cpu-prof-interval', '200', '--cpu-prof-dir', dir,
  fileURLToPath(import.meta.url), resolve(wasmPath), ...dumps.map((d) => resolve(d)),
], { stdio: 'inherit', env: { ...process.env, WASM_PROFILE_CHILD: '1' } });
if (child.status !== 0) {
  console.error(`the benchmark failed (exit ${child.status})`);
  process.exit(1);
}
const [file] = await readdir(dir);
const profile = JSON.parse(await readFile(join(dir, file), 'utf8'));
await rm(dir, { recursive: true });

// Self time by function, demangled enough to read (legacy Rust mangling: `_ZN` + length-prefixed
// path segments + hash).
const demangle = (name) => {
  const m = /^_ZN((?:\d+[^\d].*?)+)17h[0-9a-f]{16}E/.exec(name);
  if (!m) return name;
  const parts = [];
  let rest = m[1];
  while (rest.length > 0) {
    const len = /^\d+/.exec(rest);
    if (!len) break;
    const n = Number(len[0]);
    parts.push(rest.slice(len[0].length, len[0].length + n));
    rest = rest.slice(len[0].length + n);
  }
  return parts.map((p) => p.replace(/^_(?=\$)/, '')).join('::').replace(/\$LT\$/g, '<').replace(/\$GT\$/g, '>')
    .replace(/\$u20\$/g, ' ').replace(/\$u7b\$/g, '{').replace(/\$u7d\$/g, '}').replace(/\$C\$/g, ',')
    .replace(/\$RF\$/g, '&').replace(/\.\./g, '::');
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const frame = byId.get(id).callFrame;
  const name = demangle(frame.functionName || `(${frame.url || 'anonymous'})`);
  self.set(name, (self.get(name) ?? 0) + dt);
});
console.log(`\nself time, ${(total / 1e6).toFixed(2)} s profiled (sampling every 0.2 ms):`);
for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${name.slice(0, 120)}`);
}
