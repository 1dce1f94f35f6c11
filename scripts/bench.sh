#!/usr/bin/env bash
# Native benchmark (not a test): the release `faultline` CLI analysing gen-dump.py dumps of 1k and
# 10k pods, YAML and JSON. Prints seconds, MB/s and peak RSS for each. Dumps are cached in
# target/bench/ (they are deterministic). Set BENCH_SIZES="1000" to skip the 10k dumps.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
GEN=../shared/tools/gen-dump.py
SIZES=${BENCH_SIZES:-"1000 10000"}
RUNS=${BENCH_RUNS:-3}
mkdir -p target/bench
if [ ! -x /usr/bin/time ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time
fi
cargo build --release --locked -p faultline-cli
printf '%-22s %10s %8s %10s %12s\n' input "size MB" "median s" "MB/s" "peak RSS MB"
for pods in $SIZES; do
  for format in yaml json; do
    dump=target/bench/dump-$pods.$format
    [ -s "$dump" ] || python3 "$GEN" --pods "$pods" --format "$format" --out "$dump"
    bytes=$(stat -c %s "$dump")
    times=()
    rss=0
    for _ in $(seq "$RUNS"); do
      out=$( { /usr/bin/time -f '%e %M' target/release/faultline analyze --format json "$dump" >/dev/null; } 2>&1 | tail -1)
      times+=("${out% *}")
      r=${out#* }
      [ "$r" -gt "$rss" ] && rss=$r
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")
    awk -v name="$(basename "$dump")" -v b="$bytes" -v s="$median" -v r="$rss" \
      'BEGIN { printf "%-22s %10.1f %8.2f %10.1f %12.0f\n", name, b/1e6, s, (s > 0 ? b/1e6/s : 0), r/1024 }'
  done
done
