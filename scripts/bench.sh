#!/usr/bin/env bash
# Native benchmark (not a test): the engine on gen-dump.py dumps of 1k and 10k pods, YAML and JSON.
# Prints ingest and full-analysis times and MB/s (median of BENCH_RUNS, default 3), then the peak
# RSS of one full `faultline analyze` per dump. Dumps are cached in target/bench/ (deterministic).
# BENCH_SIZES="1000" skips the 10k-pod dumps.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
GEN=../shared/tools/gen-dump.py
SIZES=${BENCH_SIZES:-"1000 10000"}
mkdir -p target/bench
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
printf '%-24s %14s %16s\n' input "peak RSS MB" "RSS / input size"
for dump in "${dumps[@]}"; do
  rss_kb=$( { /usr/bin/time -f '%M' target/native/faultline analyze --format json "$dump" >/dev/null; } 2>&1 | tail -1)
  awk -v n="$(basename "$dump")" -v r="$rss_kb" -v b="$(stat -c %s "$dump")" \
    'BEGIN { printf "%-24s %14.0f %16.1f\n", n, r/1024, r*1024/b }'
done
