#!/usr/bin/env bash
# Runs a single-node Kubernetes on this machine until this script is stopped: kube-apiserver and etcd
# (../kube-apiserver/start.sh), containerd (CDI on), kubelet, kube-proxy (kube-proxy.sh), kube-scheduler,
# kube-controller-manager, the
# upstream DRA test driver test-driver.cdi.k8s.io (`test-driver kubelet-plugin --enable-device-metadata
# --num-devices=16`: devices without attributes, metadata files) and the two attribute drivers of
# attribute-drivers.sh, attributes.example.com (no metadata files) and files.example.com (metadata files), whose
# devices carry attributes; all from build.sh.
#
#   [DRA_KUBE_RELEASE=<minor>] start.sh <state-dir>      (another release's Kubernetes commands: releases.sh)
#
# kube-apiserver listens on the node's address (<state-dir>/ready and the kubeconfig name it), which pods reach too.
# When the node is usable (Node Ready and untainted, each of the three drivers' ResourceSlice published, the
# DeviceClasses gpu.example.com (any device of the test driver; the shipped manifests use it),
# attributes.example.com and mixed.example.com (attribute-drivers.sh), the default ServiceAccount), writes
# <state-dir>/kubeconfig and then <state-dir>/ready (the server URL). <state-dir>/env holds the node's facts for the
# tests (containerd socket, ctr, app image name, the node's and the test driver's names, its plugin directory, the
# directory of containerd's registry hosts, releases.sh's keys (the releases and binaries run) and
# attribute-drivers.sh's (the attribute drivers' names, devices files and plugin directories).
# Logs: <state-dir>/<component>.log.
#
# The node: name dra-test-node, address 198.18.0.1 on the link dra-node0 (a bridge without ports); pods get their
# own network namespace through the CNI plugins bridge (dra-cni0, 198.18.1.1/24, no gateway, no masquerading) and
# host-local (198.18.1.0/24), so kubelet probes the pod IP, and two routes via the bridge, as a cluster's network
# routes pods to their node: to the node's address (status.hostIP, where the node-mode agent listens) and to the
# Services' addresses (198.19.0.0/16; kube-proxy leads them to their endpoints; the Service kubernetes to the API
# server). 198.18.0.0/15 (the benchmarking range) is unreachable beyond those addresses and the pods have no default
# route: nothing leaves the machine.
# The host's sysctls stay untouched: kubelet runs in its own mount namespace in which read-only files over
# /proc/sys hold the values it wants; /var/lib/kubelet is an rshared mount so that its pod volumes reach
# containerd. The app image (app-image.sh: busybox, curl, python3) is imported and is also the sandbox image.
#
# One node per machine (fixed paths and ports: /var/lib/kubelet, /var/run/cdi, /run/containerd, 10250): a
# second start fails while one runs. On SIGTERM, SIGINT, SIGHUP, any component exiting, or the process that
# started it dying (checked every second), it deletes the pods, stops every process, unmounts what kubelet and
# containerd mounted, removes the links, the route, the cgroups and the drivers' CDI specs, and then checks
# (teardown.sh's leftovers) that no process, mount, cgroup, CDI spec, link, route or directory of the node is left,
# no iptables rule naming its chains, links or range was added and the watched sysctls have the values they had
# at its start. If this script is killed outright, the kernel kills the processes it started, and the next start
# lists what was left, removes it and runs the same check against the killed run's start before it goes on.
# While the node runs, component.sh stops one of containerd, kubelet, kube-proxy, kube-scheduler,
# kube-controller-manager, test-driver, attribute-driver or attribute-file-driver (SIGTERM, as a service manager does) and starts it again
# with the same command line and state: a request file in <state-dir>/control that the loop below honours
# (control.sh; a stopped component is not "a component that exited"); whatever is stopped when the node ends is
# simply not running, and the cleanup and check are the same.
# Exit status: 0 after a stop that left nothing; 3 without a Go toolchain (from build.sh); 1 on any failure, a
# component that exited, or anything left behind; the reason (each leftover, one a line) is on stderr.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
state="${1:?usage: start.sh <state-dir>}"
state="$(mkdir -p "$state" && cd "$state" && pwd)"
parent=$PPID
rm -f "$state/ready" "$state/kubeconfig" "$state/env"

app_image=localhost/dra-test-node/app:1
# The node's fixed names (node, addresses, links, drivers, run, sock), teardown_node and leftovers.
# shellcheck source=teardown.sh
source "$here/teardown.sh"
# The attribute drivers: their devices files, start commands and DeviceClasses.
# shellcheck source=attribute-drivers.sh
source "$here/attribute-drivers.sh"
# shellcheck source=kube-proxy.sh
source "$here/kube-proxy.sh"

[ "$(id -u)" = 0 ] || { echo "the real node needs root" >&2; exit 1; }
# The lock is held while fd 8 is open: the processes this script starts inherit no descriptor but stdin, stdout
# and stderr (a killed run's containers, which outlive it, would hold this lock, or any a caller's flock gave
# this script); a killed run's last short commands may hold it for a moment.
exec 8>/run/dra-test-node.lock
flock -w 5 8 || { echo "a real node already runs on this machine (lock /run/dra-test-node.lock)" >&2; exit 1; }

bin="$("$here/build.sh")/bin"
# The Kubernetes commands (k8s), of build.sh's release or DRA_KUBE_RELEASE's, and the handler of component.sh.
# shellcheck source=releases.sh
source "$here/releases.sh"
# shellcheck source=control.sh
source "$here/control.sh"
for tool in runc ip iptables-save unshare setpriv kubectl; do
  command -v "$tool" >/dev/null || { echo "the real node needs $tool" >&2; exit 1; }
done
[ -x /usr/lib/cni/bridge ] || { echo "the real node needs the CNI plugins (apt-get install containernetworking-plugins)" >&2; exit 1; }

if [ -e /var/lib/kubelet ] && [ ! -d "$run" ]; then
  echo "/var/lib/kubelet exists and is not a real node's of these tests: refusing to touch it" >&2
  exit 1
fi
# Whatever a killed run left behind: listed, removed, and checked against the host as that run's start found it.
if [ -d "$host_before" ] || [ -n "$(leftovers)" ]; then
  echo "an earlier node did not end cleanly; removing what it left:" >&2
  leftovers "$([ -d "$host_before" ] && echo "$host_before")" | sed 's/^/  /' >&2
fi
teardown_node
left="$(leftovers "$([ -d "$host_before" ] && echo "$host_before")")"
if [ -n "$left" ]; then
  printf 'what an earlier node left could not be removed:\n%s\n' "$left" >&2
  exit 1
fi
snapshot_host "$host_before"

pids=()
names=()
commands=()   # each component's command line (printf %q), for component.sh's start
cleanup() {
  trap - EXIT INT TERM HUP
  rm -f "$state/ready"
  if [ -f "$state/kubeconfig" ]; then
    # Kubelet kills the containers, unprepares the claims (the driver removes its files) and tears down the pods' networks.
    kubectl --kubeconfig "$state/kubeconfig" delete pods --all-namespaces --all --grace-period=1 --wait=false \
      >/dev/null 2>&1 || true
    for _ in $(seq 150); do
      [ -z "$("$bin/ctr" --address "$sock" -n k8s.io containers ls -q 2>/dev/null)" ] && break
      sleep 0.1
    done
  fi
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do [ -n "${pids[i]}" ] && stop_process "${pids[i]}"; done
  teardown_node
  rm -rf "$state/kubeconfig" "$state/env" "$state/control"
  local left
  left="$(leftovers "$host_before")"
  if [ -n "$left" ]; then
    printf 'the node left this behind:\n%s\n' "$left" >&2
    exit 1
  fi
  rm -rf "$host_before"
}
trap cleanup EXIT
trap 'exit 0' INT TERM HUP   # a stop asked for; the exit status is then the check's

started=$(date +%s%N)
# run_marked <pdeathsig> <command...>: execs the command marked as the node's, with only descriptors 0-2, and
# killed by <pdeathsig> should this script die.
run_marked() {
  local signal=$1 fd
  shift
  for fd in /proc/$BASHPID/fd/*; do
    fd=${fd##*/}
    if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi
  done
  exec env "$node_marker" setpriv --pdeathsig "$signal" "$@"
}
# start_process <name> <command...>: runs it (run_marked, SIGKILL) with its log in <state>/<name>.log.
start_process() {
  local name=$1
  shift
  (run_marked KILL "$@") >"$state/$name.log" 2>&1 &
  pids+=($!)
  names+=("$name")
  commands+=("$(printf '%q ' "$@")")
}
check_processes() {
  local i
  for i in "${!pids[@]}"; do
    if [ -n "${pids[i]}" ] && ! kill -0 "${pids[i]}" 2>/dev/null; then
      echo "${names[i]} exited; its log, $state/${names[i]}.log, ends with:" >&2
      tail -20 "$state/${names[i]}.log" >&2
      exit 1
    fi
  done
}
wait_for() {   # wait_for <what> <seconds> <command...>
  local what=$1 seconds=$2
  shift 2
  for _ in $(seq $((seconds * 10))); do
    check_processes
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  echo "$what: not reached within $seconds s (logs in $state)" >&2
  exit 1
}

mkdir -p "$run"/{containerd/certs.d,cni/net.d,cni/ipam,sysctl} /var/lib/kubelet/plugins_registry /var/run/cdi
# The plugins directory as the kubelet makes it (root, 0750) and the driver's as the strictest driver does: node mode's
# agent (user 1001) must reach the metadata files below them as on a real node (its supplemental group root).
install -d -m 0750 /var/lib/kubelet/plugins "/var/lib/kubelet/plugins/$driver"

# kubelet links every container's log into this fixed directory.
[ -d /var/log/containers ] || touch "$run/made-var-log-containers"

# Network: the node's address, the pods' bridge, and nothing routed off the machine.
ip link add "$node_link" type bridge   # no dummy driver on these kernels: a bridge without ports holds the address as well
ip addr add "$node_ip/32" dev "$node_link"
ip link set "$node_link" up
# The Services' addresses, for the node's own processes (hostNetwork pods): kube-proxy sends a connection to a
# Service on to its endpoint; one to no Service goes to the link without ports, no further.
ip route add "$service_range" dev "$node_link"
ip link add "$bridge" type bridge
# A fixed address: a bridge without one takes the lowest of its ports' addresses, which changes as pods come and go,
# and the pods' neighbour entries for it go stale (their packets to the node dropped until they resolve it again).
ip link set "$bridge" address 02:00:c6:12:01:01
ip addr add "$bridge_cidr" dev "$bridge"
ip link set "$bridge" up
ip route add unreachable "$reserved_range"
cat >"$run/cni/net.d/10-dra-test.conflist" <<CNI
{
  "cniVersion": "1.0.0",
  "name": "dra-test",
  "plugins": [
    {
      "type": "bridge", "bridge": "$bridge", "isGateway": false, "isDefaultGateway": false, "ipMasq": false,
      "hairpinMode": false,
      "ipam": { "type": "host-local", "dataDir": "$run/cni/ipam", "ranges": [[{ "subnet": "$pod_subnet", "rangeStart": "198.18.1.10" }]],
                "routes": [{ "dst": "$node_ip/32" }, { "dst": "$service_range" }] }
    }
  ]
}
CNI

# The API server next (it takes the longest), on the node's address, as a cluster's pods reach theirs: pods route to
# the node's address (the sidecar's resource-API source calls it from a pod's network namespace).
mkdir -p "$state/apiserver"
(run_marked TERM env DRA_KUBE_APISERVER_ADDRESS="$node_ip" DRA_KUBE_APISERVER_SERVICES="$service_range" DRA_KUBE_APISERVER_BIN="${k8s[kube-apiserver]}" bash "$here/../kube-apiserver/start.sh" "$state/apiserver") \
  >"$state/apiserver.log" 2>&1 &
pids+=($!)
names+=(apiserver)
commands+=("")   # not one component.sh restarts

# /var/lib/kubelet: shared, so that the mounts kubelet makes in its own namespace reach containerd's.
mount --bind /var/lib/kubelet /var/lib/kubelet
mount --make-rshared /var/lib/kubelet

cat >"$run/containerd/config.toml" <<TOML
version = 4
root = '$run/containerd/root'
state = '$run/containerd/state'
imports = []
[plugins.'io.containerd.server.v1.grpc']
  address = '$sock'
[plugins.'io.containerd.server.v1.ttrpc']
  address = '$sock.ttrpc'
[plugins.'io.containerd.cri.v1.images']
  snapshotter = 'overlayfs'
  [plugins.'io.containerd.cri.v1.images'.pinned_images]
    sandbox = '$app_image'
  # A registry's trust (hosts.toml: its CA) under <dir>/<host:port>/, read at each pull: a test adds its own.
  [plugins.'io.containerd.cri.v1.images'.registry]
    config_path = '$run/containerd/certs.d'
[plugins.'io.containerd.cri.v1.runtime']
  # No CAP_SYS_RESOURCE here: runc cannot lower oom_score_adj below the shim's.
  restrict_oom_score_adj = true
  disable_apparmor = true
  cdi_spec_dirs = ['/etc/cdi', '/var/run/cdi']
  netns_mounts_under_state_dir = true
  [plugins.'io.containerd.cri.v1.runtime'.cni]
    bin_dirs = ['/usr/lib/cni']
    conf_dir = '$run/cni/net.d'
  [plugins.'io.containerd.cri.v1.runtime'.containerd]
    default_runtime_name = 'runc'
    [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
      runtime_type = 'io.containerd.runc.v2'
      [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
        BinaryName = '$(command -v runc)'
        SystemdCgroup = false
TOML
start_process containerd env PATH="$bin:$PATH" "$bin/containerd" --config "$run/containerd/config.toml"
ctr=("$bin/ctr" --address "$sock")
wait_for "containerd answering" 30 "${ctr[@]}" version

"$here/app-image.sh" "$bin/pause" "$app_image" "$run/app-image.tar"
"${ctr[@]}" -n k8s.io images import "$run/app-image.tar" >/dev/null

# Kubelet's sysctls, as read-only files in its mount namespace; the host's stay as they are.
sysctl_mounts=""
for setting in $kubelet_sysctls; do
  key=${setting%=*}
  value=${setting#*=}
  if [ "$(cat "/proc/sys/$key")" != "$value" ]; then
    file="$run/sysctl/${key//\//.}"
    echo "$value" >"$file"
    sysctl_mounts+="mount --bind $file /proc/sys/$key && mount -o remount,ro,bind /proc/sys/$key && "
  fi
done

wait_for "kube-apiserver ready" 90 test -f "$state/apiserver/ready"
kubeconfig="$state/apiserver/kubeconfig"
python3 - "$kubeconfig" "$run/ca.crt" <<'PY'
import base64, re, sys
text = open(sys.argv[1]).read()
data = re.search(r"certificate-authority-data: (\S+)", text).group(1)
open(sys.argv[2], "wb").write(base64.b64decode(data))
PY

cat >"$run/kubelet.yaml" <<YAML
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $node_ip
healthzBindAddress: 127.0.0.1
readOnlyPort: 0
authentication:
  anonymous:
    enabled: true
  webhook:
    enabled: false
authorization:
  mode: AlwaysAllow
containerRuntimeEndpoint: unix://$sock
cgroupDriver: cgroupfs
cgroupsPerQOS: true
failCgroupV1: false
failSwapOn: false
oomScoreAdj: 0
makeIPTablesUtilChains: false
protectKernelDefaults: false
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard:
  memory.available: 1Mi
  nodefs.available: 1%
  imagefs.available: 1%
  nodefs.inodesFree: 1%
registerNode: true
podLogsDir: $run/pod-logs
# kubelet.log also says when a plugin socket comes or goes and when the DRA driver's plugin is registered or
# unregistered: the tests that restart the driver wait for its registration (KubeNode.driverRegistrations).
logging:
  vmodule:
  - filePattern: plugin_watcher
    verbosity: 2
  - filePattern: dra_plugin_manager
    verbosity: 3
YAML
start_process kubelet unshare --mount --propagation unchanged -- sh -c "${sysctl_mounts}exec ${k8s[kubelet]} \
  --config=$run/kubelet.yaml --kubeconfig=$kubeconfig --hostname-override=$node --node-ip=$node_ip"
start_process kube-scheduler "${k8s[kube-scheduler]}" --kubeconfig="$kubeconfig" --authentication-kubeconfig="$kubeconfig" \
  --authorization-kubeconfig="$kubeconfig" --leader-elect=false --bind-address=127.0.0.1 --secure-port=0
# The namespace controller empties a deleted namespace (the tests end by deleting theirs): without it the pods and
# claims of every test would stay, run and hold the driver's 16 devices until the node ends. The EndpointSlice
# controller lists a Service's endpoints, which kube-proxy routes to.
start_process kube-controller-manager "${k8s[kube-controller-manager]}" --kubeconfig="$kubeconfig" \
  --leader-elect=false --bind-address=127.0.0.1 --secure-port=0 --root-ca-file="$run/ca.crt" \
  --controllers=namespace-controller,serviceaccount-controller,endpointslice-controller,root-ca-certificate-publisher-controller,resourceclaim-controller,node-lifecycle-controller,garbage-collector-controller,deployment-controller,replicaset-controller,daemonset-controller
start_process test-driver "${k8s[test-driver]}" --kubeconfig="$kubeconfig" kubelet-plugin --node-name="$node" \
  --enable-device-metadata --num-devices=16
start_attribute_drivers
start_kube_proxy

k=(kubectl --kubeconfig "$kubeconfig")
kubectl_apply() { "${k[@]}" apply -f - >/dev/null; }
kubectl_apply <<YAML
# Stands in for the GPU class the shipped manifests ask for: any device of the upstream test driver.
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.example.com
spec:
  selectors:
    - cel:
        expression: device.driver == "$driver"
YAML
apply_attribute_classes
node_ready() {
  [ "$("${k[@]}" get node "$node" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}')" = True ] &&
    [ -z "$("${k[@]}" get node "$node" -o 'jsonpath={.spec.taints}')" ]
}
wait_for "node $node Ready and untainted" 90 node_ready
slices_published() {
  local published name
  published=" $("${k[@]}" get resourceslices -o 'jsonpath={.items[*].spec.driver}') "
  for name in $drivers; do [[ "$published" == *" $name "* ]] || return 1; done
}
wait_for "the drivers' ResourceSlices" 60 slices_published
wait_for "the default ServiceAccount" 60 "${k[@]}" get serviceaccount default -n default

# control <stop|start> <component>: what component.sh asks; prints the answer ("ok ..." or why not).
mkdir -p "$state/control"
rm -f "$state/control/"*
cat >"$state/env" <<ENV
containerd_socket=$sock
ctr=$bin/ctr
app_image=$app_image
node=$node
driver=$driver
plugin_dir=/var/lib/kubelet/plugins/$driver
registry_hosts_dir=$run/containerd/certs.d
$(k8s_env)
$(attribute_drivers_env)
ENV
cp "$kubeconfig" "$state/kubeconfig"
cat "$state/apiserver/ready" >"$state/ready"
echo "node $node of Kubernetes $release, kubelet $kubelet_release" >&2
echo "node $node usable in $(( ($(date +%s%N) - started) / 1000000 )) ms" >&2

while true; do
  check_processes
  kill -0 "$parent" 2>/dev/null || exit 0
  if [ -f "$state/control/request" ]; then
    read -r verb name dir <"$state/control/request" || true
    rm -f "$state/control/request"
    control "${verb:-}" "${name:-}" "${dir:-}" >"$state/control/answer.tmp" 2>&1
    mv "$state/control/answer.tmp" "$state/control/answer"
  fi
  sleep 0.1
done
