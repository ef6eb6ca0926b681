#!/usr/bin/env bash
# Builds Syft (the SBOM generator, pinned by go.mod/go.sum beside this script) once into a cache keyed by those
# files, and prints the path of the binary.
# Cache, reuse and exit status (3: no Go toolchain, the caller skips): see ../go-tool-cache.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../go-tool-cache.sh"
go_tool_single syft github.com/anchore/syft github.com/anchore/syft/cmd/syft "-X main.version={bare-version}"
