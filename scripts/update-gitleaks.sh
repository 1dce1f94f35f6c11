#!/usr/bin/env bash
# Refreshes the vendored gitleaks rule set (crates/redact/rules/: gitleaks.toml, its LICENSE and
# VERSION) from gitleaks' repository: the latest release tag by default, or the ref given
# (`scripts/update-gitleaks.sh v8.30.1`, a commit, `master`). Then rebuild and run the redaction
# tests: `cargo test -p faultline-redact` lists any upstream rule that the `regex` crate refuses
# (gitleaks::tests::the_skipped_rules_are_the_known_ones) and probes every rule (tests/probe).
set -euo pipefail
ref="${1:-}"
repo="https://github.com/gitleaks/gitleaks.git"
dest="$(cd "$(dirname "$0")/.." && pwd)/crates/redact/rules"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -z "$ref" ]; then
  ref="$(git ls-remote --tags --refs --sort=-version:refname "$repo" 'v*' | head -n1 | sed 's|.*refs/tags/||')"
fi
git -C "$work" init -q
git -C "$work" fetch -q --depth 1 "$repo" "$ref"
git -C "$work" show FETCH_HEAD:config/gitleaks.toml > "$dest/gitleaks.toml"
git -C "$work" show FETCH_HEAD:LICENSE > "$dest/LICENSE"
commit="$(git -C "$work" rev-parse FETCH_HEAD)"
{
  echo "gitleaks $ref"
  echo "commit $commit"
  echo "date $(git -C "$work" log -1 --format=%cs FETCH_HEAD)"
  echo "source https://github.com/gitleaks/gitleaks/blob/$commit/config/gitleaks.toml"
} > "$dest/VERSION"
echo "crates/redact/rules: gitleaks $ref ($commit), $(grep -c '^\[\[rules\]\]' "$dest/gitleaks.toml") rules"
