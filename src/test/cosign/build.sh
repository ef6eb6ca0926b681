#!/usr/bin/env bash
# Builds cosign (github.com/sigstore/cosign/v3, the version go.mod pins) once into a cache keyed by go.mod and
# go.sum, and prints the path of the binary; `cosign version` reports that version. A big module: its first build is
# the longest of the Go tools after Kubernetes (docs/release.md gives the time measured).
# Cache, reuse and exit status (3: no Go toolchain, the caller skips): see ../go-tool-cache.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../go-tool-cache.sh"
go_tool_single cosign github.com/sigstore/cosign/v3 github.com/sigstore/cosign/v3/cmd/cosign \
  "-X sigs.k8s.io/release-utils/version.gitVersion={version} -X sigs.k8s.io/release-utils/version.gitTreeState=clean"
