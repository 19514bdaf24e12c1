#!/usr/bin/env bash
# Create .venv and install tabletap into it, on a machine that has only Python 3.11+ and make.
# Debian's Python may lack the venv module (package python3-venv); as root we install it.
set -euo pipefail
PYTHON=${1:-python3}
VENV=${2:-.venv}

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "tabletap needs Python 3.11 or newer; '$PYTHON' is $("$PYTHON" --version 2>&1 || echo missing)" >&2
  exit 1
fi
if ! "$PYTHON" -m venv --help >/dev/null 2>&1 || ! "$PYTHON" -c 'import ensurepip' 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "==> installing Debian's python3-venv"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
  else
    echo "Python's venv module is missing: install python3-venv (sudo apt-get install python3-venv)" >&2
    exit 1
  fi
fi
echo "==> creating $VENV and installing tabletap (first run only; a minute or two)"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet -e '.[dev]'
