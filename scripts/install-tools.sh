#!/usr/bin/env bash
# Installs what building the app needs, skipping what is already there:
# the wasm32 target, rustfmt and clippy, trunk, cargo-fuzz, and wasm-bindgen-cli at exactly the version in
# Cargo.lock (Trunk must never download it). Nothing prebuilt is downloaded: both come from crates.io.
# Node.js runs Trunk's post_build hook (scripts/post-build.mjs), and binaryen's wasm-opt comes from npm,
# pinned in tools/package-lock.json (Debian's binaryen is too old to read current Rust wasm).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

TRUNK_VERSION=0.21.14
CARGO_FUZZ_VERSION=0.13.2
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
if [ -z "$WASM_BINDGEN_VERSION" ]; then
  echo "install-tools: no wasm-bindgen in Cargo.lock" >&2
  exit 1
fi
if ! grep -q "wasm_bindgen = \"$WASM_BINDGEN_VERSION\"" Trunk.toml; then
  echo "install-tools: Trunk.toml's [tools] wasm_bindgen must be $WASM_BINDGEN_VERSION (the version in Cargo.lock)" >&2
  exit 1
fi

step() { printf '\n==> %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    step "adding $component"
    rustup component add "$component"
  fi
done
if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  step "installing trunk $TRUNK_VERSION from crates.io (about 17 minutes, once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  step "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION from crates.io (about 9 minutes, once)"
  # Not --locked: its own lock file wants a crate version this registry lacks.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi
if [ "$(cargo fuzz --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
  # Runs on stable Rust through RUSTC_BOOTSTRAP=1 (scripts/fuzz.sh); its dependencies build with 1.95.
  step "installing cargo-fuzz $CARGO_FUZZ_VERSION from crates.io (about 2 minutes, once)"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  step "installing Debian nodejs and npm"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm
fi
# npm ci writes node_modules/.package-lock.json; newer than package-lock.json means up to date.
if [ ! tools/node_modules/.package-lock.json -nt tools/package-lock.json ]; then
  step "installing binaryen's wasm-opt from npm (npm ci in tools/)"
  (cd tools && npm ci --no-audit --no-fund)
fi
step "fetching crates (cargo fetch --locked)"
cargo fetch --locked
