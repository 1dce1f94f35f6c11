#!/usr/bin/env bash
# Benchmarks (not tests), on gen-dump.py dumps of 1k and 10k pods, YAML and JSON:
#   1. native: ingest and full-analysis times and MB/s (median of BENCH_RUNS, default 3), then the
#      peak RSS of one full `faultline analyze` per dump; then the engine built as wasm (wasm32-wasip1,
#      the worker's profile) in Node: one analysis and secret scan per dump, and the peak of its linear
#      memory (what the app's worker holds in a tab: 32-bit pointers, Rust's wasm allocator);
#   2. Chromium: per dump, in one page of the release app, js-yaml load or JSON.parse alone vs
#      Faultline end to end through the app's worker, and the longest main-thread task; the first
#      render (tests/browser/bench.mjs);
#   3. the release bundle's size, raw and gzip, before and after wasm-opt, app and worker;
#      Then `faultline analyze` against the engine at acd207f, interleaved (scripts/bench-baseline.sh);
#   1b. native: the same for a 20 MB paste of what people really paste (the wild corpus's pastes
#      over and over: prose, logs, describe fragments, event rows; scripts/gen-mixed.py), and 5 and
#      10 MB of it, to show that reading fragments line by line stays linear;
#   4. native: `redact` of 1, 2, 4 and 8 MB inputs of the shapes that once made the secret scan
#      quadratic (PEM header lines, base64 runs, many short secret values, one-line Secrets), in
#      seconds, then the same as wasm in Node (examples/bench_redact.rs; BENCH_MB="1 2" for fewer
#      sizes; BENCH_ONLY=redact runs this part alone).
# Dumps are cached in target/bench/ (deterministic). BENCH_SIZES="1000" skips the 10k-pod dumps;
# BENCH_CHROMIUM=0 stops after the wasm-in-Node part (no release build, Chromium or bundle sizes).
# Every figure also goes to target/bench/figures.jsonl, and at the end scripts/ratchet.py prints each one
# more than 10 % worse than the record in bench/figures.json (`make bench-record` makes this run the record).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

# 4 alone: `BENCH_ONLY=redact scripts/bench.sh` (`make bench-redact`), natively and as wasm in Node
# (the worker's profile; BENCH_WASM=0 skips it).
bench_redact() {
  echo "==> Redaction of the shapes that were once quadratic (issue 28; target: 1 MB under 0.1 s), native"
  cargo build --profile native --locked -p faultline-engine --example bench_redact
  target/native/examples/bench_redact
  echo
  echo "==> Redaction of 1 MB mixed pastes (issue 42: gitleaks' rules and the structure; target: under 0.1 s), native"
  mkdir -p target/bench
  [ -s target/bench/wild-mixed-1mb.txt ] || python3 scripts/gen-mixed.py --mb 1 --out target/bench/wild-mixed-1mb.txt
  [ -s target/bench/dump-150.yaml ] || python3 ../shared/tools/gen-dump.py --pods 150 --format yaml --out target/bench/dump-150.yaml
  head -c 1000000 target/bench/dump-150.yaml > target/bench/dump-1mb.yaml
  # The secrets corpus's pastes, the wild pastes and the dump, interleaved to 1 MB.
  python3 - <<'PY'
import glob
parts = [open(f).read() for f in sorted(glob.glob('tests/fixtures/secrets/*')) if not f.endswith('.json')]
wild, dump = open('target/bench/wild-mixed-1mb.txt').read(), open('target/bench/dump-1mb.yaml').read()
chunk = lambda t: [t[i:i + 20000] for i in range(0, len(t), 20000)]
wild, dump = chunk(wild), chunk(dump)
out, size, i = [], 0, 0
while size < 1_000_000:
    for t in (parts[i % len(parts)], wild[i % len(wild)], dump[i % len(dump)]):
        out.append(t)
        size += len(t.encode())
    i += 1
open('target/bench/secrets-mixed-1mb.txt', 'w').write(''.join(out))
PY
  BENCH_RUNS="${BENCH_RUNS:-5}" BENCH_FILES="target/bench/wild-mixed-1mb.txt target/bench/secrets-mixed-1mb.txt target/bench/dump-1mb.yaml" \
    target/native/examples/bench_redact
  if [ "${BENCH_WASM:-1}" != 0 ]; then
    echo
    echo "==> The same as wasm in Node (wasm32-wasip1, worker profile: the app's worker's code)"
    rustup target add wasm32-wasip1 >/dev/null 2>&1
    cargo build --profile worker --target wasm32-wasip1 --locked -p faultline-engine --example bench_redact
    WASM_PROFILE_CHILD=1 BENCH_RUNS="${BENCH_RUNS:-3}" node --no-warnings --no-incremental-marking \
      scripts/wasm-profile.mjs target/wasm32-wasip1/worker/examples/bench_redact.wasm
  fi
}
if [ "${BENCH_ONLY:-}" = redact ]; then
  bench_redact
  exit 0
fi
GEN=../shared/tools/gen-dump.py
SIZES=${BENCH_SIZES:-"1000 10000"}
mkdir -p target/bench
export BENCH_FIGURES="$PWD/target/bench/figures.jsonl"
: > "$BENCH_FIGURES"
if [ ! -x /usr/bin/time ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time
fi
dumps=()
for pods in $SIZES; do
  for format in yaml json; do
    dump=target/bench/dump-$pods.$format
    [ -s "$dump" ] || python3 "$GEN" --pods "$pods" --format "$format" --out "$dump"
    dumps+=("$dump")
  done
done
cargo build --profile native --locked -p faultline-cli
cargo build --profile native --locked -p faultline-engine --example bench_ingest
target/native/examples/bench_ingest "${dumps[@]}"
echo
echo "==> A paste of fragments: the wild corpus's pastes over and over (5, 10 and 20 MB; linear reading)"
mixed=()
for mb in 5 10 20; do
  file=target/bench/mixed-${mb}mb.txt
  [ -s "$file" ] || python3 scripts/gen-mixed.py --mb "$mb" --out "$file"
  mixed+=("$file")
done
target/native/examples/bench_ingest "${mixed[@]}"
echo
bench_redact
echo
printf '%-24s %14s %16s\n' input "peak RSS MB" "RSS / input size"
for dump in "${dumps[@]}"; do
  rss_kb=$( { /usr/bin/time -f '%M' target/native/faultline analyze --format json "$dump" >/dev/null; } 2>&1 | tail -1)
  awk -v n="$(basename "$dump")" -v r="$rss_kb" -v b="$(stat -c %s "$dump")" \
    'BEGIN { printf "%-24s %14.0f %16.1f\n", n, r/1024, r*1024/b }'
  printf '{"figure": "native %s peak RSS MB", "value": %s}\n' "$(basename "$dump")" "$((rss_kb / 1024))" >> "$BENCH_FIGURES"
done
echo
echo "==> Native \`faultline analyze\` against the engine at ${BENCH_BASELINE:-acd207f} (issue 43: at most 0.8), median of ${BENCH_BASELINE_RUNS:-7}, interleaved"
scripts/bench-baseline.sh "${dumps[@]}"

echo
echo "==> The engine as wasm in Node (wasm32-wasip1, worker profile): times, stages and peak linear memory, one run per dump"
rustup target add wasm32-wasip1 >/dev/null 2>&1
cargo build --profile worker --target wasm32-wasip1 --locked -p faultline-engine --example bench_ingest
for dump in "${dumps[@]}"; do
  WASM_PROFILE_CHILD=1 BENCH_RUNS=1 node --no-warnings --no-incremental-marking scripts/wasm-profile.mjs \
    target/wasm32-wasip1/worker/examples/bench_ingest.wasm "$PWD/$dump" | grep -v '^$' |
    sed "s|^ *wasm memory|$(basename "$dump") wasm memory|"
done

# BENCH_CHROMIUM=0 skips the release build, Chromium and the bundle (native and wasm-in-Node only).
ratchet() {
  echo
  echo "==> Against the recorded figures (bench/figures.json; \`make bench-record\` records this run's)"
  python3 scripts/ratchet.py compare "$BENCH_FIGURES"
}
if [ "${BENCH_CHROMIUM:-1}" = 0 ]; then
  ratchet
  exit 0
fi

echo
echo "==> Chromium"
scripts/install-browser-tools.sh >/dev/null
trunk build --release >/dev/null
node tests/browser/bench.mjs "${dumps[@]}"

echo
echo "==> Release bundle (dist/): bytes raw and gzip -9; wasm before wasm-opt from target/wasm-opt-before/"
size_row() { # label file [before-file]
  local raw gz
  raw=$(stat -c %s "$2"); gz=$(gzip -9c "$2" | wc -c)
  if [ -n "${3:-}" ] && [ -f "$3" ]; then
    printf '%-34s %10d %10d   before wasm-opt: %10d %10d\n' "$1" "$raw" "$gz" "$(stat -c %s "$3")" "$(gzip -9c "$3" | wc -c)"
  else
    printf '%-34s %10d %10d\n' "$1" "$raw" "$gz"
  fi
}
app_wasm=$(ls dist/faultline-app-*_bg.wasm)
app_js=$(ls dist/faultline-app-*.js)
printf '%-34s %10s %10s\n' file raw gzip
size_row "app wasm ($(basename "$app_wasm"))" "$app_wasm" target/wasm-opt-before/faultline-app_bg.wasm
size_row "app js" "$app_js"
size_row "worker wasm" dist/faultline-worker_bg.wasm target/wasm-opt-before/faultline-worker_bg.wasm
size_row "worker js" dist/faultline-worker.js
size_row "worker loader (engine-worker.js)" dist/engine-worker.js
gz() { local t=0; for f in "$@"; do t=$((t + $(gzip -9c "$f" | wc -c))); done; echo $t; }
echo "first page load, wasm + js, gzip: $(gz "$app_wasm" "$app_js") bytes (budget 512000)"
echo "engine worker, loaded on the first analysis, gzip: $(gz dist/faultline-worker_bg.wasm dist/faultline-worker.js dist/engine-worker.js) bytes"
printf '{"figure": "bundle first page load gzip bytes", "value": %s}\n{"figure": "bundle engine worker gzip bytes", "value": %s}\n' \
  "$(gz "$app_wasm" "$app_js")" "$(gz dist/faultline-worker_bg.wasm dist/faultline-worker.js dist/engine-worker.js)" >> "$BENCH_FIGURES"

ratchet
