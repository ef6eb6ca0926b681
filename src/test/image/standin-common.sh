# Sourced by distroless-standin.sh and temurin-standin.sh, which set $base (the image's name) and $script_name
# first: podman as the tests run it, the label that marks a stand-in, and the step both take first.
podman=("$(dirname "${BASH_SOURCE[0]}")/podman.sh")
label=dev.dra.sidecar.base-standin

fail() { echo "$script_name: $*" >&2; exit 1; }

# Exits 0 with "base: <base> present" (and how a stand-in was made) when $base is in podman's storage already.
exit_if_present() {
  command -v podman >/dev/null || fail "podman is not installed"
  if "${podman[@]}" image exists "$base"; then
    local how
    how=$("${podman[@]}" image inspect --format "{{ index .Labels \"$label\" }}" "$base" 2>/dev/null || true)
    [[ $how == "<no value>" ]] && how=
    echo "base: $base present${how:+ (stand-in: $how)}"
    exit 0
  fi
}
