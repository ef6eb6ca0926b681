#!/usr/bin/env bash
# Runs the sidecar image the way deploy/kubernetes/components/sidecar/sidecar.yaml runs it: the image's
# numeric non-root user, read-only root filesystem and no writable directory at all, the manifests' memory limit,
# every capability dropped, no-new-privileges, the metadata tree mounted read-only, and optionally one
# metadata file as a single-file read-only bind mount (as the kubelet mounts each file). Host network, so the
# loopback API (127.0.0.1:8089) and management port (9000) are reachable from the host as from the app
# container of the pod. Detached; prints the container id.
#
# usage: run-like-pod.sh <image> <container name> <memory limit, e.g. 160m> <metadata tree> \
#          [<host file> <path in the tree>] [-- <extra podman run options>...]
set -euo pipefail

image=$1 name=$2 memory=$3 tree=$4
shift 4
root=/var/run/kubernetes.io/dra-device-attributes
file_mount=()
if [[ $# -ge 2 && $1 != -- ]]; then
  file_mount=(--mount "type=bind,source=$1,destination=$root/$2,readonly=true")
  shift 2
fi
[[ ${1:-} == -- ]] && shift

exec "$(dirname "$0")/podman.sh" run --detach --name "$name" \
  --network host \
  --memory "$memory" --memory-swap "$memory" \
  --read-only --read-only-tmpfs=false \
  --cap-drop ALL --security-opt no-new-privileges \
  --mount "type=bind,source=$tree,destination=$root,readonly=true" \
  "${file_mount[@]}" \
  "$@" \
  "$image"
