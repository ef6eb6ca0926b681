#!/usr/bin/env bash
# Builds actionlint (github.com/rhysd/actionlint, the version go.mod pins) once into a cache keyed by go.mod and
# go.sum, and prints the path of the binary. .ci/run runs it on .github/workflows.
# Cache, reuse and exit status (3: no Go toolchain, the caller skips): see ../go-tool-cache.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../go-tool-cache.sh"

go_tool_cache actionlint .build-actionlint "$here/go.mod" "$here/go.sum"

build() {
  local version
  version="$(awk '$1 == "github.com/rhysd/actionlint" { print $2 }' "$here/go.mod")"
  (cd "$here" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath \
    -ldflags "-s -w -X github.com/rhysd/actionlint.version=$version" \
    -o "$work/bin/actionlint" github.com/rhysd/actionlint/cmd/actionlint)
}
go_tool_build actionlint build actionlint
echo "$target/bin/actionlint"
