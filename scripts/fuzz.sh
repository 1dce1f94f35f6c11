#!/usr/bin/env bash
# Fuzzes the engine with cargo-fuzz (libFuzzer), seeded with the shared corpus and the test fixtures.
#   scripts/fuzz.sh [SECONDS] [TARGET...]   default: 60 seconds for each of `analyze` and `redact`
# FUZZ_RUNS=N stops a target after N executions (if that comes before SECONDS); FUZZ_MAX_LEN sets
# the longest input (default 8192 bytes).
# Runs on stable Rust: RUSTC_BOOTSTRAP=1 lets cargo-fuzz pass the -Z flags libFuzzer needs (CI has
# no nightly). No sanitizer: the engine forbids unsafe code, so AddressSanitizer would only slow it;
# debug assertions (overflow checks) stay on. A crash leaves its input in fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
export RUSTC_BOOTSTRAP=1
SECONDS_EACH=${1:-60}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(analyze redact)
CORPUS=../shared/corpus
[ -d "$CORPUS" ] || { echo "fuzz: the shared corpus is missing at $CORPUS" >&2; exit 1; }
SEEDS=()
while IFS= read -r dir; do SEEDS+=("$dir"); done < <(find "$CORPUS" tests/fixtures -type f -printf '%h\n' | sort -u)
for target in "${TARGETS[@]}"; do
  mkdir -p "fuzz/corpus/$target"
  echo "==> fuzzing $target for ${SECONDS_EACH}s"
  # -max_len: 8 KiB by default (FUZZ_MAX_LEN): longer inputs cost time per run more than they find.
  log="fuzz/$target.log"
  if ! cargo +stable fuzz run --sanitizer none --fuzz-dir fuzz "$target" "fuzz/corpus/$target" "${SEEDS[@]}" -- \
      -max_total_time="$SECONDS_EACH" -runs="${FUZZ_RUNS:--1}" -max_len="${FUZZ_MAX_LEN:-8192}" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
      >"$log" 2>&1; then
    tail -40 "$log" >&2
    echo "fuzz: $target failed; the crashing input is in fuzz/artifacts/$target/" >&2
    exit 1
  fi
  # libFuzzer's final statistics: executions, executions per second, peak memory.
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log"
done
