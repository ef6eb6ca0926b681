#!/usr/bin/env bash
# Builds Syft (the SBOM generator, pinned by go.mod/go.sum beside this script) once into a cache keyed by those
# files, and prints the path of the binary.
# Cache, reuse and exit status (3: no Go toolchain, the caller skips): see ../go-tool-cache.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../go-tool-cache.sh"

go_tool_cache syft .build-syft "$here/go.mod" "$here/go.sum"

build() {
  local version
  version="$(awk '$1 == "github.com/anchore/syft" { print $2 }' "$here/go.mod")"
  (cd "$here" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath \
    -ldflags "-s -w -X main.version=${version#v}" -o "$work/bin/syft" github.com/anchore/syft/cmd/syft)
}
go_tool_build syft build syft
echo "$target/bin/syft"
