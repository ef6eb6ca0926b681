#!/usr/bin/env bash
# Builds cosign (github.com/sigstore/cosign/v3, the version go.mod pins) once into a cache keyed by go.mod and
# go.sum, and prints the path of the binary. A big module: its first build is the longest of the Go tools after
# Kubernetes (docs/release.md gives the time measured).
# Cache, reuse and exit status (3: no Go toolchain, the caller skips): see ../go-tool-cache.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../go-tool-cache.sh"

go_tool_cache cosign .build-cosign "$here/go.mod" "$here/go.sum"

build() {
  # The version `cosign version` reports, from the one go.mod pins.
  local version
  version="$(awk '$1 == "github.com/sigstore/cosign/v3" { print $2 }' "$here/go.mod")"
  (cd "$here" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath \
    -ldflags "-s -w -X sigs.k8s.io/release-utils/version.gitVersion=$version -X sigs.k8s.io/release-utils/version.gitTreeState=clean" \
    -o "$work/bin/cosign" github.com/sigstore/cosign/v3/cmd/cosign)
}
go_tool_build cosign build cosign
echo "$target/bin/cosign"
