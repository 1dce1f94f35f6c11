#!/usr/bin/env bash
# `faultline analyze --format json` of each dump given, this build against the engine at a baseline
# commit (BENCH_BASELINE, default acd207f: the stop before the reading work, which issue 43 measures
# against), same machine, same run: the two binaries alternate, BENCH_BASELINE_RUNS times each
# (default 7), and the median wall time of each and their ratio are printed. The baseline is built
# once, from a worktree of this repository, into target/baseline/ (kept between runs). Skipped, with a
# line saying why, when the repository has no such commit (a shallow clone). A benchmark: it prints,
# it does not fail on a slow figure (the ratchet reports the ratio).
set -euo pipefail
cd "$(dirname "$0")/.."
BASELINE=${BENCH_BASELINE:-acd207f}
RUNS=${BENCH_BASELINE_RUNS:-7}
if ! git rev-parse -q --verify "$BASELINE^{commit}" >/dev/null; then
  echo "(no commit $BASELINE in this clone: the comparison with it is skipped)"
  exit 0
fi
src=target/baseline/src-$BASELINE
bin=target/baseline/faultline-$BASELINE
if [ ! -x "$bin" ]; then
  rm -rf "$src"
  git worktree prune
  git worktree add -f --detach "$src" "$BASELINE" >/dev/null
  CARGO_TARGET_DIR="$PWD/target/baseline/target" cargo build --manifest-path "$src/Cargo.toml" \
    --profile native --locked -p faultline-cli
  cp target/baseline/target/native/faultline "$bin"
  git worktree remove --force "$src"
fi
now=target/native/faultline
# Seconds of one run of `$1 analyze --format json $2`, output thrown away.
once() {
  local start end
  start=$(date +%s%N)
  "$1" analyze --format json "$2" >/dev/null
  end=$(date +%s%N)
  echo $(((end - start) / 1000))
}
printf '%-24s %14s %14s %8s\n' input "$BASELINE s" "now s" ratio
for dump in "$@"; do
  base_runs=()
  now_runs=()
  for _ in $(seq "$RUNS"); do
    base_runs+=("$(once "$bin" "$dump")")
    now_runs+=("$(once "$now" "$dump")")
  done
  median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
  base=$(median "${base_runs[@]}")
  mine=$(median "${now_runs[@]}")
  name=$(basename "$dump")
  awk -v n="$name" -v b="$base" -v m="$mine" 'BEGIN { printf "%-24s %14.3f %14.3f %8.2f\n", n, b / 1e6, m / 1e6, m / b }'
  if [ -n "${BENCH_FIGURES:-}" ]; then
    awk -v n="$name" -v b="$base" -v m="$mine" -v c="$BASELINE" \
      'BEGIN { printf "{\"figure\": \"native %s analyze / %s\", \"value\": %.3f}\n", n, c, m / b }' >> "$BENCH_FIGURES"
  fi
done
