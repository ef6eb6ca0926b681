#!/usr/bin/env bash
# Builds the helm command (helm.sh/helm/v3, the version go.mod pins) once into a cache keyed by go.mod and
# go.sum, and prints the path of the binary; `helm version` reports that version.
# Cache, reuse and exit status (3: no Go toolchain, the caller skips): see ../go-tool-cache.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../go-tool-cache.sh"
go_tool_single helm helm.sh/helm/v3 helm.sh/helm/v3/cmd/helm \
  "-X helm.sh/helm/v3/internal/version.version={version} -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
