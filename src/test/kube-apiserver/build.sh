#!/usr/bin/env bash
# Builds kube-apiserver (module apiserver/) and etcd (module etcd/) once into a cache keyed by those modules'
# go.mod and go.sum, and prints the cache directory holding bin/kube-apiserver and bin/etcd.
#
# Cache: $DRA_KUBE_CACHE_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/dra-metadata-sidecar. A finished build is
# reused by every later run; an interrupted one leaves nothing behind that looks finished.
# Exit status: 0 built or reused, 3 not built and no Go toolchain to build it (the caller skips), anything else
# the build failed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

key="$(cat "$here"/apiserver/go.mod "$here"/apiserver/go.sum "$here"/etcd/go.mod "$here"/etcd/go.sum \
  | sha256sum | cut -c1-16)"
cache_root="${DRA_KUBE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dra-metadata-sidecar}"
target="$cache_root/kube-apiserver-$key"
mkdir -p "$cache_root"

exec 9>"$cache_root/.build-$key.lock"
flock 9   # one build at a time; a second caller waits and then reuses it

if [ ! -x "$target/bin/kube-apiserver" ] || [ ! -x "$target/bin/etcd" ]; then
  go_bin="$(command -v go || true)"
  if [ -z "$go_bin" ] && [ -x /usr/local/go/bin/go ]; then go_bin=/usr/local/go/bin/go; fi
  if [ -z "$go_bin" ]; then
    echo "no Go toolchain (go not on PATH nor /usr/local/go/bin/go): cannot build kube-apiserver and etcd" >&2
    exit 3
  fi
  work="$(mktemp -d "$cache_root/.build-$key.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  chmod 755 "$work"
  mkdir -p "$work/bin"
  echo "building kube-apiserver and etcd into $target (once; 10 to 35 minutes on 2 cores)" >&2
  start=$(date +%s)
  # The version kube-apiserver reports (/version), from the one go.mod pins.
  version="$(awk '$1 == "require" && $2 == "k8s.io/kubernetes" { print $3 }' "$here/apiserver/go.mod")"
  minor="$(echo "$version" | cut -d. -f2)"
  version_flags="-X k8s.io/component-base/version.gitVersion=$version -X k8s.io/component-base/version.gitMajor=1"
  version_flags+=" -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
  (cd "$here/apiserver" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath \
    -ldflags "-s -w $version_flags" -o "$work/bin/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver)
  (cd "$here/etcd" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath \
    -ldflags "-s -w" -o "$work/bin/etcd" go.etcd.io/etcd/server/v3)
  echo "built in $(( $(date +%s) - start )) s" >&2
  rm -rf "$target"
  mv "$work" "$target"
  trap - EXIT
fi
echo "$target"
