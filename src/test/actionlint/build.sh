#!/usr/bin/env bash
# Builds actionlint (github.com/rhysd/actionlint, the version go.mod pins) once into a cache keyed by go.mod and
# go.sum, and prints the path of the binary. .ci/run runs it on .github/workflows.
# Cache, reuse and exit status (3: no Go toolchain, the caller skips): see ../go-tool-cache.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../go-tool-cache.sh"
go_tool_single actionlint github.com/rhysd/actionlint github.com/rhysd/actionlint/cmd/actionlint \
  "-X github.com/rhysd/actionlint.version={version}"
