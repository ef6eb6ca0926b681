# Sourced (not run) by src/test/<tool>/build.sh: builds a Go tool once into a shared cache and reuses it.
#
# Cache: $DRA_KUBE_CACHE_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/dra-metadata-sidecar, shared by every tool.
# A finished build is reused by every later run; an interrupted one leaves nothing behind that looks finished.
#
# Contract, in the order a build.sh calls it (it runs under `set -euo pipefail`):
#   go_tool_cache NAME STEM FILE...
#       KEY = first 16 hex digits of the sha256 of the FILEs' concatenated contents (the key's inputs);
#       sets cache_root, key and target="$cache_root/NAME-KEY", and creates cache_root. STEM names the lock
#       "$cache_root/STEM-KEY.lock" and the temporary work directories "STEM-KEY.XXXXXX" beside it.
#   go_tool_built BINARY...
#       status 0 when every BINARY is an executable under "$target/bin".
#   go_tool_build WHAT BUILD_FUNCTION BINARY...
#       Under the lock (a second caller waits, then reuses the first one's build): unless go_tool_built BINARY...,
#       finds Go (`go` on PATH, else /usr/local/go/bin/go) and exits 3 without it, naming WHAT on stderr; else runs
#       BUILD_FUNCTION with go_bin (the go command) and work (a fresh directory with bin/, the build writes its
#       binaries there) set, and moves work to target in one step. Progress goes to stderr, nothing to stdout.
#       A failing BUILD_FUNCTION ends the script with its status and removes work.
#   go_tool_k8s_version_ldflags GO_MOD
#       prints the -X flags that make k8s.io/component-base report the k8s.io/kubernetes version GO_MOD requires.
# Exit status of a build.sh using this: 0 built or reused, 3 not built and no Go toolchain (the caller skips),
# anything else the build failed.

go_tool_cache() {
  local name="$1" stem="$2"
  shift 2
  key="$(cat "$@" | sha256sum | cut -c1-16)"
  cache_root="${DRA_KUBE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dra-metadata-sidecar}"
  target="$cache_root/$name-$key"
  go_tool_stem="$stem-$key"
  mkdir -p "$cache_root"
}

go_tool_built() {
  local b
  for b in "$@"; do [ -x "$target/bin/$b" ] || return 1; done
}

go_tool_build() {
  local what="$1" build_function="$2" start
  shift 2
  exec 9>"$cache_root/$go_tool_stem.lock"
  flock 9   # one build at a time; a second caller waits and then reuses it
  go_tool_built "$@" && return 0
  go_bin="$(command -v go || true)"
  if [ -z "$go_bin" ] && [ -x /usr/local/go/bin/go ]; then go_bin=/usr/local/go/bin/go; fi
  if [ -z "$go_bin" ]; then
    echo "no Go toolchain (go not on PATH nor /usr/local/go/bin/go): cannot build $what" >&2
    exit 3
  fi
  work="$(mktemp -d "$cache_root/$go_tool_stem.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  chmod 755 "$work"
  mkdir -p "$work/bin"
  echo "building $what into $target (once)" >&2
  start=$(date +%s)
  "$build_function"
  echo "built in $(( $(date +%s) - start )) s" >&2
  rm -rf "$target"
  mv "$work" "$target"
  trap - EXIT
}

go_tool_k8s_version_ldflags() {
  local version minor
  version="$(awk '$1 == "require" && $2 == "k8s.io/kubernetes" { print $3 }' "$1")"
  minor="$(echo "$version" | cut -d. -f2)"
  echo "-X k8s.io/component-base/version.gitVersion=$version -X k8s.io/component-base/version.gitMajor=1" \
    "-X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
}

# go_tool_single NAME MODULE PACKAGE LDFLAGS [TAGS]
#   The whole of a build.sh for one binary: NAME, built from the Go package PACKAGE of MODULE at the version the
#   go.mod beside the calling script ($here) pins, cached under NAME keyed by that go.mod and its go.sum, with
#   -ldflags "-s -w LDFLAGS", where {version} in LDFLAGS stands for MODULE's version and {bare-version} for it without
#   its leading v, and with -tags TAGS when given; prints the binary's path.
go_tool_single() {
  single_name="$1" single_module="$2" single_package="$3" single_flags="$4" single_tags="${5:-}"
  go_tool_cache "$single_name" ".build-$single_name" "$here/go.mod" "$here/go.sum"
  go_tool_build "$single_name" go_tool_single_build "$single_name"
  echo "$target/bin/$single_name"
}

go_tool_single_build() {
  local version flags
  version="$(awk -v m="$single_module" '$1 == m { print $2 } $1 == "require" && $2 == m { print $3 }' "$here/go.mod")"
  flags="${single_flags//\{version\}/$version}"
  flags="${flags//\{bare-version\}/${version#v}}"
  (cd "$here" && CGO_ENABLED=0 nice "$go_bin" build -mod=readonly -trimpath -ldflags "-s -w $flags" \
    ${single_tags:+-tags "$single_tags"} -o "$work/bin/$single_name" "$single_package")
}
