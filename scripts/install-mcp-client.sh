#!/usr/bin/env bash
# Installs the official MCP Python SDK (`mcp` from PyPI, pinned) into its own virtual environment,
# skipping it when that version is already there: the client `tests/mcp/test_mcp.py` drives
# `faultline mcp` with. FAULTLINE_MCP_VENV moves the environment (default ~/.cache/faultline/mcp-venv).
set -euo pipefail

MCP_VERSION=2.3.0
VENV="${FAULTLINE_MCP_VENV:-$HOME/.cache/faultline/mcp-venv}"

if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$MCP_VERSION')" 2>/dev/null; then
  exit 0
fi
printf '\n==> installing the MCP Python SDK (mcp==%s) into %s\n' "$MCP_VERSION" "$VENV"
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_VERSION"
