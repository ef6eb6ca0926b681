#!/usr/bin/env bash
# The release matrix, one release per run: every real-node test (*OnNodeIT) on a node of Kubernetes <minor>, and
# one line of result (date, commit, the releases that ran, tests, failures, errors, skipped, minutes, and what
# NodeUpgradeOnNodeIT saw) appended to target/release-matrix.txt and printed. <minor> is the release
# kubernetes/go.mod pins (the node of every CI run) or one of releases/ (start.sh's DRA_KUBE_RELEASE). With <other>, NodeUpgradeOnNodeIT changes the cluster to that
# release and back under running pods (DRA_KUBE_UPGRADE). docs/kubernetes-releases.md records the last results.
#   matrix.sh <minor> [<other>]     (as root, with Go and a JDK: the real node's needs)
# Exit status: Maven's.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
minor="${1:?usage: matrix.sh <minor>}"
default="$(sed -n 's/^require k8s.io\/kubernetes v\([0-9]*\.[0-9]*\)\..*$/\1/p' "$here/kubernetes/go.mod")"
if [ "$minor" = "$default" ]; then
  unset DRA_KUBE_RELEASE
elif [ -f "$here/releases/$minor/go.mod" ]; then
  export DRA_KUBE_RELEASE="$minor"
else
  echo "no release $minor: $default (kubernetes/go.mod) or one of $(ls "$here/releases" | tr '\n' ' ')" >&2
  exit 1
fi
if [ -n "${2:-}" ]; then export DRA_KUBE_UPGRADE="$2"; else unset DRA_KUBE_UPGRADE; fi
cd "$here/../../.."
started=$(date +%s)
status=0
mkdir -p target
./mvnw -B verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test='*OnNodeIT' 2>&1 \
  | tee target/release-matrix.log || status=$?
# The counts from the failsafe reports of the node tests; the releases from what start.sh said.
counts="$(cat target/failsafe-reports/TEST-dev.dra.sidecar.node.*OnNodeIT.xml 2>/dev/null \
  | sed -n 's/^<testsuite .*tests="\([0-9]*\)".*errors="\([0-9]*\)".*skipped="\([0-9]*\)".*failures="\([0-9]*\)".*$/\1 \4 \2 \3/p' \
  | awk '{ t += $1; f += $2; e += $3; s += $4 } END { printf "tests %d, failures %d, errors %d, skipped %d", t, f, e, s }')"
ran="$(sed -n 's/^node .* of \(Kubernetes .*\)$/\1/p' target/kube-node/start.log 2>/dev/null | tail -1)"
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$([ -z "$(git status --porcelain 2>/dev/null)" ] \
  || echo "+uncommitted changes")"
line="$(date -u +%Y-%m-%d) $commit ${ran:-no node started}: $counts,"
line+=" $(( ($(date +%s) - started + 30) / 60 )) min, exit $status"
# What the cluster's change and back (NodeUpgradeOnNodeIT) saw, when it ran.
upgrade="$(sed -n 's/^\[node\] \(v1\..* under running pods: .*\)$/\1/p' target/release-matrix.log | tail -1)"
[ -z "$upgrade" ] || line+="; $upgrade"
echo "$line" | tee -a target/release-matrix.txt
exit "$status"
