#!/usr/bin/env bash
# Builds the real node's binaries once into a cache keyed by the go.mod and go.sum of kubernetes/ and
# containerd/ and the sources of this repository's own commands, and prints the cache directory holding bin/:
# kubelet, kube-proxy, kube-scheduler, kube-controller-manager, test-driver (upstream's DRA test driver),
# attribute-driver (a kubelet plugin on upstream's test driver whose devices carry attributes), pause (the pod
# sandbox's process), containerd, ctr and containerd-shim-runc-v2. kube-apiserver and etcd come from ../kube-apiserver/build.sh;
# kubernetes/ pins the same versions as its module, so both builds share the Go build cache.
#   build.sh [--cached]   --cached: build nothing; exit 4 when the cache does not hold the binaries yet
#   build.sh --release <minor>
#       Builds instead the Kubernetes commands of another release for the release matrix (start.sh's
#       DRA_KUBE_RELEASE): those releases/<minor>/tools.go imports, from the k8s.io/kubernetes version its go.mod
#       pins, with the Go version that go.mod names (GOTOOLCHAIN, which the Go module proxy serves); prints that
#       cache directory. A release's go.mod names no kubelet where it cannot be built from the Go module proxy.
# Cache, reuse and exit status (3: no Go toolchain, the caller skips; 4: not built and --cached): see
# ../go-tool-cache.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../go-tool-cache.sh"

if [ "${1:-}" = --release ]; then
  release="${2:?usage: build.sh --release <minor>}"
  module="$here/releases/$release"
  [ -f "$module/go.mod" ] || { echo "no release $release in $here/releases" >&2; exit 1; }
  go_tool_cache "kube-node-$release" ".build-node-$release" "$module/go.mod" "$module/go.sum" "$module/tools.go"
  mapfile -t packages < <(sed -n 's/^\t_ "\(k8s.io\/kubernetes\/[^"]*\)"$/\1/p' "$module/tools.go")
  release_binaries=()
  for package in "${packages[@]}"; do release_binaries+=("${package##*/}"); done
  build_release() {
    # The Go version the release needs (its go.mod's go line, at the patch the proxy serves), as its own toolchain.
    local go_line
    go_line="$(awk '$1 == "go" { print $2 }' "$module/go.mod")"
    case "$go_line" in
      1.26.*) export GOTOOLCHAIN=local ;;
      1.27.*) export GOTOOLCHAIN=go1.27.3 ;;
      *) echo "releases/$release needs Go $go_line, which build.sh does not know" >&2; return 1 ;;
    esac
    (cd "$module" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath \
      -ldflags "-s -w $(go_tool_k8s_version_ldflags "$module/go.mod")" -o "$work/bin/" "${packages[@]}")
  }
  go_tool_build "Kubernetes $release's commands" build_release "${release_binaries[@]}"
  echo "$target"
  exit 0
fi

go_tool_cache kube-node .build-node "$here"/kubernetes/go.mod "$here"/kubernetes/go.sum \
  "$here"/kubernetes/pause/main.go "$here"/kubernetes/attribute-driver/main.go \
  "$here"/containerd/go.mod "$here"/containerd/go.sum
binaries=(kubelet kube-proxy kube-scheduler kube-controller-manager test-driver attribute-driver pause containerd ctr
  containerd-shim-runc-v2)

if [ "${1:-}" = --cached ]; then
  go_tool_built "${binaries[@]}" && { echo "$target"; exit 0; }
  echo "the node's binaries are not built yet ($target)" >&2
  exit 4
fi

build() {
  (cd "$here/containerd" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath -tags no_btrfs \
    -ldflags "-s -w" -o "$work/bin/" github.com/containerd/containerd/v2/cmd/containerd \
    github.com/containerd/containerd/v2/cmd/ctr github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2)
  # The version the components report (Node status, /version), from the one go.mod pins.
  (cd "$here/kubernetes" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath \
    -ldflags "-s -w $(go_tool_k8s_version_ldflags "$here/kubernetes/go.mod")" -o "$work/bin/" \
    k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy k8s.io/kubernetes/cmd/kube-scheduler \
    k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/test/e2e/dra/test-driver ./attribute-driver ./pause)
}
go_tool_build "the node's binaries" build "${binaries[@]}"
echo "$target"
