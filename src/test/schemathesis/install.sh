#!/usr/bin/env bash
# Installs the pinned Schemathesis (requirements.txt) into its own virtual environment, once per version, and
# prints the path of its `schemathesis` command. Fails (exit 1, with the reason on stderr) where python3 has no
# venv module or PyPI cannot be reached; SchemathesisIT then skips with that reason.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version="$(sed -n 's/^schemathesis==//p' "$here/requirements.txt")"
venv="${DRA_SCHEMATHESIS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/dra-metadata-sidecar/schemathesis-$version}"
if [ ! -x "$venv/bin/schemathesis" ] || [ "$("$venv/bin/schemathesis" --version 2>/dev/null)" != "schemathesis, version $version" ]; then
  command -v python3 >/dev/null || { echo "no python3" >&2; exit 1; }
  rm -rf "$venv"
  python3 -m venv "$venv" >&2 || { echo "python3 cannot make a virtual environment (python3-venv missing?)" >&2; exit 1; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt" >&2 \
    || { rm -rf "$venv"; echo "pip could not install $(grep -v '^#' "$here/requirements.txt")" >&2; exit 1; }
fi
echo "$venv/bin/schemathesis"
