#!/usr/bin/env bash
# Builds kube-apiserver (module apiserver/) and etcd (module etcd/) once into a cache keyed by those modules'
# go.mod and go.sum, and prints the cache directory holding bin/kube-apiserver and bin/etcd.
# Cache, reuse and exit status (3: no Go toolchain, the caller skips): see ../go-tool-cache.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../go-tool-cache.sh"

go_tool_cache kube-apiserver .build \
  "$here"/apiserver/go.mod "$here"/apiserver/go.sum "$here"/etcd/go.mod "$here"/etcd/go.sum

build() {
  # The version kube-apiserver reports (/version), from the one go.mod pins.
  (cd "$here/apiserver" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath \
    -ldflags "-s -w $(go_tool_k8s_version_ldflags "$here/apiserver/go.mod")" -o "$work/bin/kube-apiserver" \
    k8s.io/kubernetes/cmd/kube-apiserver)
  (cd "$here/etcd" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath \
    -ldflags "-s -w" -o "$work/bin/etcd" go.etcd.io/etcd/server/v3)
}
go_tool_build "kube-apiserver and etcd" build kube-apiserver etcd
echo "$target"
