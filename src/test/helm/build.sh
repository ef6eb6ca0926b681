#!/usr/bin/env bash
# Builds the helm command (helm.sh/helm/v3, the version go.mod pins) once into a cache keyed by go.mod and
# go.sum, and prints the path of the binary.
# Cache, reuse and exit status (3: no Go toolchain, the caller skips): see ../go-tool-cache.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../go-tool-cache.sh"

go_tool_cache helm .build-helm "$here/go.mod" "$here/go.sum"

build() {
  # The version `helm version` reports, from the one go.mod pins.
  local version
  version="$(awk '$1 == "require" && $2 == "helm.sh/helm/v3" { print $3 }' "$here/go.mod")"
  (cd "$here" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath \
    -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$version -X helm.sh/helm/v3/internal/version.gitTreeState=clean" \
    -o "$work/bin/helm" helm.sh/helm/v3/cmd/helm)
}
go_tool_build helm build helm
echo "$target/bin/helm"
