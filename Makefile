# Faultline: two commands do all set-up on a fresh machine.
#   make serve   installs what is missing, builds the app and serves it on http://127.0.0.1:8080/
#   make test    installs what is missing, then runs every check: fmt, clippy, unit and corpus tests,
#                a one-minute fuzz run of each fuzz target, the wasm builds, and the browser tests.
#   make fuzz    fuzzes the engine for ten minutes per target (FUZZ_SECONDS to change it).
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
export PATH := $(HOME)/.cargo/bin:$(PATH)
export CARGO_TERM_COLOR := never

.PHONY: serve test tools browser-tools mcp-tools lint unit mcp-test fuzz-short fuzz wasm app browser-test cli bench bench-record bench-redact wasm-profile

serve: tools
	@echo "Faultline will be served at http://127.0.0.1:8080/ (Ctrl-C to stop)"
	trunk serve --release

test: tools browser-tools mcp-tools lint unit mcp-test fuzz-short wasm app browser-test
	@echo "make test: every check passed"

tools:
	scripts/install-tools.sh

browser-tools:
	scripts/install-browser-tools.sh

# The official MCP Python SDK (pinned), in its own virtual environment, for mcp-test.
MCP_VENV ?= $(HOME)/.cache/faultline/mcp-venv
mcp-tools:
	FAULTLINE_MCP_VENV=$(MCP_VENV) scripts/install-mcp-client.sh

lint:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	cargo clippy -p faultline-app --target wasm32-unknown-unknown --locked -- -D warnings
	cargo clippy -p faultline-worker --target wasm32-unknown-unknown --locked -- -D warnings

unit:
	cargo test --workspace --locked
	python3 scripts/test_ratchet.py

# `faultline mcp` driven by a real MCP client (the Python SDK): every tool, every corpus case
# against the CLI's JSON, every secrets fixture checked for leaks (tests/mcp/test_mcp.py).
mcp-test: mcp-tools
	cargo build -p faultline-cli --locked
	$(MCP_VENV)/bin/python tests/mcp/test_mcp.py target/debug/faultline

# cargo-fuzz over `analyze` and `redact`, seeded with the shared corpus (scripts/fuzz.sh).
fuzz-short:
	scripts/fuzz.sh 60

FUZZ_SECONDS ?= 600
fuzz: tools
	scripts/fuzz.sh $(FUZZ_SECONDS)

# The guard that keeps the engine browser-safe: it must build for wasm32 on its own.
wasm:
	cargo build -p faultline-engine --target wasm32-unknown-unknown --locked

app:
	trunk build --release

browser-test:
	cd tests/browser && npm test

cli:
	cargo build --profile native -p faultline-cli --locked
	@echo "built target/native/faultline"

# Benchmarks print figures; they are not tests: native engine, Chromium (js-yaml / JSON.parse vs the
# app's worker, long tasks, first render) and the bundle sizes. BENCH_SIZES="1000" skips the 10k-pod dumps.
# It ends by printing every figure more than 10 % worse than the record, bench/figures.json (scripts/ratchet.py).
bench: tools browser-tools
	scripts/bench.sh

# Makes the last `make bench` run's figures (target/bench/figures.jsonl) the record, deliberately:
# commit bench/figures.json with what made them move.
bench-record:
	python3 scripts/ratchet.py record target/bench/figures.jsonl

# Only the redaction benchmark (issue 28): 1, 2, 4 and 8 MB of each once-quadratic shape, native and wasm.
bench-redact:
	BENCH_ONLY=redact scripts/bench.sh

# Where the engine's time goes as wasm (a developer's tool): the native benchmark built for
# wasm32-wasip1 with the worker's profile, run in Node under V8's CPU profiler (scripts/wasm-profile.mjs).
# PROFILE_DUMP picks the input (default: the 1k-pod YAML dump).
PROFILE_DUMP ?= target/bench/dump-1000.yaml
wasm-profile: tools
	rustup target add wasm32-wasip1
	[ -s target/bench/dump-1000.yaml ] || python3 ../shared/tools/gen-dump.py --pods 1000 --format yaml --out target/bench/dump-1000.yaml
	cargo build --profile worker --target wasm32-wasip1 --locked -p faultline-engine --example bench_ingest
	node --no-warnings scripts/wasm-profile.mjs target/wasm32-wasip1/worker/examples/bench_ingest.wasm $(PROFILE_DUMP)
