#!/usr/bin/env bash
# Builds Syft (the SBOM generator, pinned by go.mod/go.sum beside this script) once into a cache keyed by those
# files, and prints the path of the binary.
#
# Cache: $DRA_KUBE_CACHE_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/dra-metadata-sidecar (as for kube-apiserver).
# A finished build is reused by every later run; an interrupted one leaves nothing behind that looks finished.
# Exit status: 0 built or reused, 3 not built and no Go toolchain to build it (the caller skips), anything else
# the build failed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

key="$(cat "$here/go.mod" "$here/go.sum" | sha256sum | cut -c1-16)"
cache_root="${DRA_KUBE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dra-metadata-sidecar}"
target="$cache_root/syft-$key"
mkdir -p "$cache_root"

exec 9>"$cache_root/.build-syft-$key.lock"
flock 9   # one build at a time; a second caller waits and then reuses it

if [ ! -x "$target/bin/syft" ]; then
  go_bin="$(command -v go || true)"
  if [ -z "$go_bin" ] && [ -x /usr/local/go/bin/go ]; then go_bin=/usr/local/go/bin/go; fi
  if [ -z "$go_bin" ]; then
    echo "no Go toolchain (go not on PATH nor /usr/local/go/bin/go): cannot build syft" >&2
    exit 3
  fi
  work="$(mktemp -d "$cache_root/.build-syft-$key.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  chmod 755 "$work"
  mkdir -p "$work/bin"
  echo "building syft into $target (once)" >&2
  start=$(date +%s)
  version="$(awk '$1 == "github.com/anchore/syft" { print $2 }' "$here/go.mod")"
  (cd "$here" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath \
    -ldflags "-s -w -X main.version=${version#v}" -o "$work/bin/syft" github.com/anchore/syft/cmd/syft)
  echo "built in $(( $(date +%s) - start )) s" >&2
  rm -rf "$target"
  mv "$work" "$target"
  trap - EXIT
fi
echo "$target/bin/syft"
