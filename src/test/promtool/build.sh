#!/usr/bin/env bash
# Builds promtool (github.com/prometheus/prometheus/cmd/promtool, the module version go.mod pins) once into a cache
# keyed by go.mod and go.sum, and prints the path of the binary; `promtool --version` reports the Prometheus release
# of that module version (v0.3MM.P is Prometheus 3.MM.P). The chart's PrometheusRule tests run it, for `check rules`
# and `test rules` only: built with Prometheus' remove_all_sd tag, without the optional service discoveries (cloud
# SDKs that are most of the build), as Prometheus' README describes.
# Cache, reuse and exit status (3: no Go toolchain, the caller skips): see ../go-tool-cache.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../go-tool-cache.sh"
module_version="$(awk '$1 == "github.com/prometheus/prometheus" { print $2 }' "$here/go.mod")"
IFS=. read -r _ minor patch <<<"${module_version#v}"
release="$((minor / 100)).$((minor % 100)).$patch"
go_tool_single promtool github.com/prometheus/prometheus github.com/prometheus/prometheus/cmd/promtool \
  "-X github.com/prometheus/common/version.Version=$release -X github.com/prometheus/common/version.Branch=HEAD" \
  remove_all_sd
