# Sourced by start.sh: the node's fixed names, what removes everything a real node leaves on the machine (whether
# it ended cleanly or was killed; idempotent), and the check that nothing is left. Of its three DRA drivers
# (test-driver.cdi.k8s.io, attributes.example.com, files.example.com) that is each one's CDI specs,
# /var/run/cdi/<driver>-*.json and <driver>_*.json, and its plugin directory and sockets, under /var/lib/kubelet.
#
# Run directly, it prints what a node left, one line per leftover, compared with the host as a node's start
# recorded it (<baseline-dir>, written by snapshot_host; without one, the iptables and sysctl checks are skipped):
#   teardown.sh leftovers [<baseline-dir>]

node=dra-test-node
node_ip=198.18.0.1
bridge=dra-cni0
bridge_cidr=198.18.1.1/24
pod_subnet=198.18.1.0/24
service_range=198.19.0.0/16   # the Services' addresses (kube-proxy.sh), inside reserved_range
node_link=dra-node0
reserved_range=198.18.0.0/15
driver=test-driver.cdi.k8s.io
# The attribute drivers (attribute-drivers.sh); like the test driver, each writes CDI specs into /var/run/cdi named
# <driver>-*.json or <driver>_*.json and has its plugin directory and sockets under /var/lib/kubelet.
attribute_driver=attributes.example.com
attribute_file_driver=files.example.com
drivers="$driver $attribute_driver $attribute_file_driver"
run=/var/lib/dra-test-node   # fixed: what a killed run left behind is found and removed by the next one
sock="$run/containerd/containerd.sock"
# The host as the running node's start found it; removed once a check finds nothing left, so the next start
# checks what a killed run left against it.
host_before=/run/dra-test-node.host-before
# Every process start.sh starts carries this in its environment (and so do their children).
node_marker=DRA_TEST_NODE=1
# What kubelet would write into /proc/sys, each with the value it wants (start.sh shows these to kubelet in its
# own mount namespace), and the networking settings a node could change: leftovers compares them all with the
# values at the start.
kubelet_sysctls="vm/overcommit_memory=1 vm/panic_on_oom=0 kernel/panic=10 kernel/panic_on_oops=1
kernel/keys/root_maxkeys=1000000 kernel/keys/root_maxbytes=25000000"
watched_sysctls="$(for setting in $kubelet_sysctls; do echo "${setting%=*}"; done)
net/ipv4/ip_forward net/ipv4/conf/all/forwarding net/bridge/bridge-nf-call-iptables net/bridge/bridge-nf-call-ip6tables
net/ipv4/conf/all/route_localnet net/netfilter/nf_conntrack_max net/netfilter/nf_conntrack_tcp_timeout_established
net/netfilter/nf_conntrack_tcp_timeout_close_wait"
# iptables rules and chains that are the node's: kubelet's and the CNI plugins' chains, its links and its range.
node_rule_pattern="KUBE-|CNI-|$bridge|$node_link|198\.1[89]\."

# stop_process <pid>: SIGTERM, then SIGKILL after 10 s.
stop_process() {
  local pid=$1
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}

# Processes of the node: those carrying its marker, those naming its run directory (containerd, kubelet, the
# shims: also when a run without the marker left them) and the containers in kubelet's cgroups of any hierarchy.
node_pids() {
  {
    {
      grep -l -z -x -F -- "$node_marker" /proc/[0-9]*/environ 2>/dev/null || true
      grep -l -a -F -- "$run/" /proc/[0-9]*/cmdline 2>/dev/null || true
    } | cut -d/ -f3
    find /sys/fs/cgroup/*/kubepods -name cgroup.procs -exec cat {} + 2>/dev/null || true
  } | sort -un
}

# Mount points at or under <dir>, deepest first.
mounts_under() {
  awk -v dir="$1" '$5 == dir || index($5, dir "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r
}

node_mounts() {
  mounts_under /var/lib/kubelet
  mounts_under "$run"
  mounts_under /run/containerd
}

node_cdi_specs() {
  local name
  for name in $drivers; do compgen -G "/var/run/cdi/$name[-_]*.json" || true; done
}

teardown_node() {
  local pid cgroup mnt attempt name
  # SIGTERM first: the API server's start.sh (which a killed run's leaves running) removes its own files.
  pid="$(node_pids | tr '\n' ' ')"
  if [ -n "${pid// /}" ]; then
    # shellcheck disable=SC2086
    kill -TERM $pid 2>/dev/null || true
    local until=$((SECONDS + 5))
    while [ -n "$(node_pids)" ] && [ "$SECONDS" -lt "$until" ]; do sleep 0.2; done
  fi
  for attempt in 1 2 3; do
    pid="$(node_pids | tr '\n' ' ')"
    [ -z "${pid// /}" ] && break
    # shellcheck disable=SC2086
    kill -KILL $pid 2>/dev/null || true
    sleep 0.5
  done
  for attempt in 1 2 3; do
    for mnt in $(node_mounts); do
      umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null || true
    done
    [ -z "$(node_mounts)" ] && break
  done
  for name in $drivers; do rm -f /var/run/cdi/"$name"[-_]*.json; done
  rmdir /var/run/cdi 2>/dev/null || true
  for cgroup in /sys/fs/cgroup/*/kubepods; do
    [ -d "$cgroup" ] || continue
    find "$cgroup" -depth -type d -exec rmdir {} + 2>/dev/null || true
  done
  remove_kube_chains
  ip route del unreachable "$reserved_range" 2>/dev/null || true
  ip link del "$node_link" 2>/dev/null || true
  ip link del "$bridge" 2>/dev/null || true
  if [ -d /var/log/containers ]; then
    find /var/log/containers -maxdepth 1 -lname "$run/*" -delete
    [ -e "$run/made-var-log-containers" ] && rmdir /var/log/containers 2>/dev/null || true
  fi
  rm -rf /var/lib/kubelet "$run"
  # The shim's fixed state directories (whatever containerd's state says); no other containerd runs here.
  [ -S /run/containerd/containerd.sock ] || rm -rf /run/containerd
}

# Removes kube-proxy's iptables chains (KUBE-*) and the rules that jump to them, in every table and family.
remove_kube_chains() {
  local cmd table rule rules chain chains
  for cmd in iptables ip6tables; do
    command -v "$cmd" >/dev/null || continue
    for table in filter nat mangle raw; do
      rules="$("$cmd" -t "$table" -S 2>/dev/null | grep -E -- '^-A [^ ]+ .*-j KUBE-' | grep -v -E -- '^-A KUBE-' || true)"
      while IFS= read -r rule; do
        # -S quotes what needs it (comments): eval reads the rule back as its words.
        if [ -n "$rule" ]; then eval "\"\$cmd\" -t \"\$table\" -D ${rule#-A }" || true; fi
      done <<<"$rules"
      chains="$("$cmd" -t "$table" -S 2>/dev/null | sed -n 's/^-N \(KUBE-[^ ]*\)$/\1/p' || true)"
      for chain in $chains; do "$cmd" -t "$table" -F "$chain" || true; done
      for chain in $chains; do "$cmd" -t "$table" -X "$chain" || true; done
    done
  done
}

# The iptables rules of every table and family, without counters, one per line ("<family> <table> <rule>").
iptables_rules() {
  local family save table line
  for family in ip ip6; do
    save=${family}tables-save
    command -v "$save" >/dev/null || continue
    "$save" 2>/dev/null | while IFS= read -r line; do
      case "$line" in
        \#*|COMMIT) ;;
        \**) table=${line#\*} ;;
        *) echo "$family $table ${line% \[*\]}" ;;
      esac
    done
  done
}

# snapshot_host <dir>: records what leftovers compares with (iptables rules, watched sysctls).
snapshot_host() {
  local dir=$1 key
  rm -rf "$dir"
  mkdir -p "$dir"
  iptables_rules | sort >"$dir/iptables"
  for key in $watched_sysctls; do
    [ -r "/proc/sys/$key" ] && echo "$key=$(cat "/proc/sys/$key")"
  done >"$dir/sysctls"
}

# leftovers [<baseline-dir>]: one line per thing a node left on the machine; nothing when it left nothing.
leftovers() {
  local before=${1:-} pid mnt spec cgroup link dir key value now
  for pid in $(node_pids); do
    if [ -r "/proc/$pid/cmdline" ]; then echo "process $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" | cut -c1-200)"; fi
  done
  for mnt in $(node_mounts); do echo "mount $mnt"; done
  for cgroup in /sys/fs/cgroup/*/kubepods; do
    if [ -d "$cgroup" ]; then echo "cgroup $cgroup"; fi
  done
  for spec in $(node_cdi_specs); do echo "CDI spec $spec"; done
  for link in "$node_link" "$bridge"; do
    if ip link show "$link" >/dev/null 2>&1; then echo "link $link"; fi
  done
  if [ -n "$(ip route show type unreachable "$reserved_range" 2>/dev/null)" ]; then
    echo "route unreachable $reserved_range"
  fi
  for dir in /var/lib/kubelet "$run"; do
    if [ -e "$dir" ]; then echo "directory $dir"; fi
  done
  [ -n "$before" ] || return 0
  { iptables_rules | sort | comm -13 "$before/iptables" - | grep -E -- "$node_rule_pattern" || true; } \
    | sed 's/^/iptables /'
  while IFS='=' read -r key value; do
    now="$(cat "/proc/sys/$key" 2>/dev/null || echo "(gone)")"
    if [ "$now" != "$value" ]; then echo "sysctl $key: $value at the start, $now now"; fi
  done <"$before/sysctls"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  case "${1:-}" in
    leftovers) leftovers "${2:-}" ;;
    *) echo "usage: teardown.sh leftovers [<baseline-dir>]" >&2; exit 2 ;;
  esac
fi
