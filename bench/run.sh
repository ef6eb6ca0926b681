#!/usr/bin/env bash
# Benchmark suite of dra-metadata-sidecar: one command, loopback only, bounded in time (bench/README.md).
#
#   bench/run.sh                 full run (<= 10 min), writes bench/results/<UTC time>.{json,md}
#   bench/run.sh --smoke         a few seconds per part, figures only (about 90 s); .ci/run calls it
#   bench/run.sh --jar PATH      the runner jar to measure (default target/quarkus-app/quarkus-run.jar)
#   bench/run.sh --help          every option
#
# Builds nothing. Installs nginx-light and wrk with apt-get when they are missing (needs root).
# Every process it starts is killed when it ends, however it ends.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${BENCH_WORK:-$here/work}"

need=()
command -v wrk >/dev/null 2>&1 || need+=(wrk)
command -v nginx >/dev/null 2>&1 || need+=(nginx-light)
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v unshare >/dev/null 2>&1 || need+=(util-linux)
if ((${#need[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "bench: missing ${need[*]} and not root: install them first" >&2
    exit 2
  fi
  echo "bench: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # a policy-rc.d that says "no" keeps the nginx package from starting a system nginx on port 80
  own_policy=""
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && own_policy=1
  fi
  set +e
  apt-get install -y -qq "${need[@]}" >/dev/null
  rc=$?
  set -e
  if [[ -n "$own_policy" ]]; then rm -f /usr/sbin/policy-rc.d; fi
  if ((rc)); then echo "bench: apt-get install ${need[*]} failed" >&2; exit 2; fi
fi

py_pid=""
cleanup() {
  local rc=$?
  [[ -n "$py_pid" ]] && kill -TERM "$py_pid" 2>/dev/null && wait "$py_pid" 2>/dev/null || true
  # whatever is still alive of what the run started: every child ran in its own process group
  if [[ -f "$work/pids" ]]; then
    while read -r pid; do
      kill -KILL -- "-$pid" 2>/dev/null || true
    done <"$work/pids"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$work"
python3 "$here/bench.py" --work "$work" "$@" &
py_pid=$!
set +e
wait "$py_pid"
rc=$?
set -e
py_pid=""
exit "$rc"
