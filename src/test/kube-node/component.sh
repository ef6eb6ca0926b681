#!/usr/bin/env bash
# Stops one component of the running node (start.sh <state-dir>) or starts it again, as a service manager would
# for an upgrade or a configuration change: the other components, and the pods, keep running.
#
#   component.sh <state-dir> stop|start <component> [<bin-dir>]
#   <component>: containerd, kubelet, kube-proxy, kube-scheduler, kube-controller-manager, test-driver
#                (test-driver.cdi.k8s.io), attribute-driver (attributes.example.com) or attribute-file-driver
#                (files.example.com)
#
# stop: SIGTERM, SIGKILL after 10 s, returns once the process is gone. start: the same command line as at the
# node's start, with the same state (containerd's root, kubelet's /var/lib/kubelet and checkpoints, the driver's
# plugin directory; an attribute driver's devices file as it is then), or, with <bin-dir> (a Kubernetes command:
# kubelet, kube-proxy, kube-scheduler, kube-controller-manager, test-driver), the same command line with
# <bin-dir>'s binary of that name, another release's for an upgrade or a downgrade, and that one from then on; its
# output appended to <state-dir>/<component>.log; returns once it is started (the caller waits for what it needs, e.g. a pod's status
# or the driver's registration). start.sh does the work (its components are its children) when it reads
# <state-dir>/control/request; this script writes the request and prints start.sh's answer.
# Exit status: 0 done; 1 refused (not running, running already, unknown name) or no answer within 30 s; 2 usage.
set -euo pipefail
state="${1:?usage: component.sh <state-dir> stop|start <component>}"
verb="${2:?usage: component.sh <state-dir> stop|start <component>}"
name="${3:?usage: component.sh <state-dir> stop|start <component>}"
dir="${4:-}"
case "$verb" in stop|start) ;; *) echo "usage: component.sh <state-dir> stop|start <component>" >&2; exit 2 ;; esac
control="$state/control"
[ -d "$control" ] && [ -f "$state/ready" ] || { echo "no node runs with state $state" >&2; exit 1; }
exec 9>"$control/lock"
flock -w 30 9 || { echo "another component.sh is waiting for start.sh" >&2; exit 1; }
rm -f "$control/answer"
echo "$verb $name $dir" >"$control/request.tmp"
mv "$control/request.tmp" "$control/request"
for _ in $(seq 300); do
  if [ -f "$control/answer" ]; then
    answer="$(cat "$control/answer")"
    rm -f "$control/answer"
    case "$answer" in
      ok*) echo "$answer"; exit 0 ;;
      *) echo "$answer" >&2; exit 1 ;;
    esac
  fi
  sleep 0.05
done
echo "start.sh did not answer \"$verb $name\" within 30 s" >&2
exit 1
