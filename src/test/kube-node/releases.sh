# Sourced (not run) by start.sh: the node's Kubernetes commands, of build.sh's own release or another.
#
# DRA_KUBE_RELEASE=<minor> (the release matrix): kube-apiserver, kubelet, kube-proxy, kube-scheduler,
# kube-controller-manager and the test driver of that release (build.sh --release <minor>: releases/<minor>), and
# of build.sh's own release (kubernetes/go.mod) what that release does not build (start.log names each). etcd, containerd, the pause and app
# images and the attribute drivers are always build.sh's own.
#
# Needs here and bin (build.sh's bin/). Sets k8s (command name to binary, which start.sh's control changes when a
# command is started from another release's binaries), release (the version of the release run) and kubelet_release
# (the kubelet's). k8s_env prints them for <state-dir>/env: release, kubelet_release and one key per command, its
# name with '_' for '-' (kube_apiserver, kubelet, ...).

declare -A k8s
for command in kubelet kube-proxy kube-scheduler kube-controller-manager test-driver; do k8s[$command]="$bin/$command"; done
k8s[kube-apiserver]="$("$here/../kube-apiserver/build.sh")/bin/kube-apiserver"
k8s_version() { sed -n 's/^require k8s.io\/kubernetes \(v.*\)$/\1/p' "$1"; }
release="$(k8s_version "$here/kubernetes/go.mod")"
kubelet_release="$release"
if [ -n "${DRA_KUBE_RELEASE:-}" ]; then
  release_bin="$("$here/build.sh" --release "$DRA_KUBE_RELEASE")/bin"
  release="$(k8s_version "$here/releases/$DRA_KUBE_RELEASE/go.mod")"
  for command in "${!k8s[@]}"; do
    if [ -x "$release_bin/$command" ]; then
      k8s[$command]="$release_bin/$command"
    else
      echo "release $release: $command of $kubelet_release (releases/$DRA_KUBE_RELEASE builds none)" >&2
    fi
  done
  [ "${k8s[kubelet]}" = "$bin/kubelet" ] || kubelet_release="$release"
fi

k8s_env() {
  local command
  echo "release=$release"
  echo "kubelet_release=$kubelet_release"
  for command in "${!k8s[@]}"; do echo "${command//-/_}=${k8s[$command]}"; done
}
