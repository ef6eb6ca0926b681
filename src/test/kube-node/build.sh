#!/usr/bin/env bash
# Builds the real node's binaries once into a cache keyed by the go.mod and go.sum of kubernetes/ and
# containerd/, and prints the cache directory holding bin/: kubelet, kube-scheduler, kube-controller-manager,
# test-driver (upstream's DRA test driver), pause (the pod sandbox's process), containerd, ctr and
# containerd-shim-runc-v2. kube-apiserver and etcd come from ../kube-apiserver/build.sh; kubernetes/ pins the
# same versions as its module, so both builds share the Go build cache.
#
# Cache: $DRA_KUBE_CACHE_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/dra-metadata-sidecar. A finished build is
# reused by every later run; an interrupted one leaves nothing behind that looks finished.
#   build.sh [--cached]   --cached: build nothing; exit 4 when the cache does not hold the binaries yet
# Exit status: 0 built or reused, 3 not built and no Go toolchain to build it (the caller skips), 4 not built
# and --cached, anything else the build failed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

key="$(cat "$here"/kubernetes/go.mod "$here"/kubernetes/go.sum "$here"/kubernetes/pause/main.go \
  "$here"/containerd/go.mod "$here"/containerd/go.sum | sha256sum | cut -c1-16)"
cache_root="${DRA_KUBE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dra-metadata-sidecar}"
target="$cache_root/kube-node-$key"
binaries=(kubelet kube-scheduler kube-controller-manager test-driver pause containerd ctr containerd-shim-runc-v2)
mkdir -p "$cache_root"

built() { local b; for b in "${binaries[@]}"; do [ -x "$target/bin/$b" ] || return 1; done; }
if [ "${1:-}" = --cached ]; then
  built && { echo "$target"; exit 0; }
  echo "the node's binaries are not built yet ($target)" >&2
  exit 4
fi
exec 9>"$cache_root/.build-node-$key.lock"
flock 9   # one build at a time; a second caller waits and then reuses it
if ! built; then
  go_bin="$(command -v go || true)"
  if [ -z "$go_bin" ] && [ -x /usr/local/go/bin/go ]; then go_bin=/usr/local/go/bin/go; fi
  if [ -z "$go_bin" ]; then
    echo "no Go toolchain (go not on PATH nor /usr/local/go/bin/go): cannot build the node's binaries" >&2
    exit 3
  fi
  work="$(mktemp -d "$cache_root/.build-node-$key.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  chmod 755 "$work"
  mkdir -p "$work/bin"
  echo "building the node's binaries into $target (once)" >&2
  start=$(date +%s)
  (cd "$here/containerd" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath -tags no_btrfs \
    -ldflags "-s -w" -o "$work/bin/" github.com/containerd/containerd/v2/cmd/containerd \
    github.com/containerd/containerd/v2/cmd/ctr github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2)
  echo "containerd, ctr and shim built in $(( $(date +%s) - start )) s" >&2
  start=$(date +%s)
  # The version the components report (Node status, /version), from the one go.mod pins.
  version="$(awk '$1 == "require" && $2 == "k8s.io/kubernetes" { print $3 }' "$here/kubernetes/go.mod")"
  minor="$(echo "$version" | cut -d. -f2)"
  version_flags="-X k8s.io/component-base/version.gitVersion=$version -X k8s.io/component-base/version.gitMajor=1"
  version_flags+=" -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
  (cd "$here/kubernetes" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath \
    -ldflags "-s -w $version_flags" -o "$work/bin/" k8s.io/kubernetes/cmd/kubelet \
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/test/e2e/dra/test-driver ./pause)
  echo "kubelet, kube-scheduler, kube-controller-manager, test-driver and pause built in $(( $(date +%s) - start )) s" >&2
  rm -rf "$target"
  mv "$work" "$target"
  trap - EXIT
fi
echo "$target"
