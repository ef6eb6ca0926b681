#!/usr/bin/env bash
# Builds the tests' OCI registry (main.go beside this script, on github.com/google/go-containerregistry at the
# version go.mod pins) once into a cache keyed by its sources, and prints the path of the binary.
# Cache, reuse and exit status (3: no Go toolchain, the caller skips): see ../go-tool-cache.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../go-tool-cache.sh"

go_tool_cache registry .build-registry "$here/go.mod" "$here/go.sum" "$here/main.go"

build() {
  (cd "$here" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath -ldflags "-s -w" \
    -o "$work/bin/registry" .)
}
go_tool_build registry build registry
echo "$target/bin/registry"
