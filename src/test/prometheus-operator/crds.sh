#!/usr/bin/env bash
# Prints the directory that holds the Prometheus Operator's CustomResourceDefinitions
# (example/prometheus-operator-crd/*.yaml) of the release go.mod pins: its module, fetched once through the Go module
# proxy into the Go module cache and checked against go.sum. MonitoringCrdsIT installs three of them (PodMonitor,
# ServiceMonitor, PrometheusRule) on the tests' API server and applies the chart's monitoring objects there.
# Exit status: 0 printed, 3 no Go toolchain (the caller skips), anything else the download failed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
module=github.com/prometheus-operator/prometheus-operator
go_bin="$(command -v go || true)"
if [ -z "$go_bin" ] && [ -x /usr/local/go/bin/go ]; then go_bin=/usr/local/go/bin/go; fi
if [ -z "$go_bin" ]; then
  echo "no Go toolchain (go not on PATH nor /usr/local/go/bin/go): cannot fetch $module" >&2
  exit 3
fi
cd "$here"
"$go_bin" mod download "$module"
dir="$("$go_bin" list -m -mod=readonly -f '{{.Dir}}' "$module")/example/prometheus-operator-crd"
[ -f "$dir/monitoring.coreos.com_podmonitors.yaml" ] || { echo "no CRDs in $dir" >&2; exit 1; }
echo "$dir"
