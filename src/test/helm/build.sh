#!/usr/bin/env bash
# Builds the helm command (helm.sh/helm/v3, the version go.mod pins) once into a cache keyed by go.mod and
# go.sum, and prints the path of the binary.
#
# Cache: $DRA_KUBE_CACHE_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/dra-metadata-sidecar (shared with
# src/test/kube-apiserver/build.sh). A finished build is reused by every later run; an interrupted one leaves
# nothing behind that looks finished.
# Exit status: 0 built or reused, 3 not built and no Go toolchain to build it (the caller skips), anything else
# the build failed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

key="$(cat "$here/go.mod" "$here/go.sum" | sha256sum | cut -c1-16)"
cache_root="${DRA_KUBE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dra-metadata-sidecar}"
target="$cache_root/helm-$key"
mkdir -p "$cache_root"

exec 9>"$cache_root/.build-helm-$key.lock"
flock 9   # one build at a time; a second caller waits and then reuses it

if [ ! -x "$target/bin/helm" ]; then
  go_bin="$(command -v go || true)"
  if [ -z "$go_bin" ] && [ -x /usr/local/go/bin/go ]; then go_bin=/usr/local/go/bin/go; fi
  if [ -z "$go_bin" ]; then
    echo "no Go toolchain (go not on PATH nor /usr/local/go/bin/go): cannot build helm" >&2
    exit 3
  fi
  work="$(mktemp -d "$cache_root/.build-helm-$key.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  chmod 755 "$work"
  mkdir -p "$work/bin"
  echo "building helm into $target (once)" >&2
  start=$(date +%s)
  # The version `helm version` reports, from the one go.mod pins.
  version="$(awk '$1 == "require" && $2 == "helm.sh/helm/v3" { print $3 }' "$here/go.mod")"
  (cd "$here" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath \
    -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$version -X helm.sh/helm/v3/internal/version.gitTreeState=clean" \
    -o "$work/bin/helm" helm.sh/helm/v3/cmd/helm)
  echo "built in $(( $(date +%s) - start )) s" >&2
  rm -rf "$target"
  mv "$work" "$target"
  trap - EXIT
fi
echo "$target/bin/helm"
