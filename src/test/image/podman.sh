#!/usr/bin/env bash
# podman as the image test and benchmark run it on these machines (cgroups v1, setrlimit refused): the runc
# runtime, the cgroupfs manager and containers.conf next to this script (no default ulimits). Arguments are
# podman's (build, run, stop, ...).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CONTAINERS_CONF=${CONTAINERS_CONF:-$here/containers.conf}
exec podman --runtime runc --cgroup-manager cgroupfs "$@"
