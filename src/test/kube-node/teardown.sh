# Sourced by start.sh: removes everything a real node leaves on the machine, whether it ended cleanly or was
# killed. Uses start.sh's variables (run, sock, driver, node_link, bridge, reserved_range). Idempotent.

# stop_process <pid>: SIGTERM, then SIGKILL after 10 s.
stop_process() {
  local pid=$1
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}

# Processes of the node that outlive their parents: the shims (which name our containerd's socket) and the
# containers in kubelet's cgroups.
node_pids() {
  local proc pid
  for proc in /proc/[0-9]*; do
    pid=${proc#/proc/}
    if tr '\0' ' ' 2>/dev/null <"$proc/cmdline" | grep -qF -- "$sock"; then echo "$pid"; fi
  done
  find /sys/fs/cgroup/pids/kubepods -name cgroup.procs -exec cat {} + 2>/dev/null || true
}

# Mount points at or under <dir>, deepest first.
mounts_under() {
  awk -v dir="$1" '$5 == dir || index($5, dir "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r
}

teardown_node() {
  local pid cgroup mnt attempt
  for attempt in 1 2 3; do
    pid="$(node_pids | sort -u | tr '\n' ' ')"
    [ -z "${pid// /}" ] && break
    # shellcheck disable=SC2086
    kill -KILL $pid 2>/dev/null || true
    sleep 0.5
  done
  for attempt in 1 2 3; do
    for mnt in $(mounts_under /var/lib/kubelet) $(mounts_under "$run") $(mounts_under /run/containerd); do
      umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null || true
    done
    [ -z "$(mounts_under /var/lib/kubelet)$(mounts_under "$run")$(mounts_under /run/containerd)" ] && break
  done
  rm -f /var/run/cdi/"$driver"[-_]*.json
  rmdir /var/run/cdi 2>/dev/null || true
  for cgroup in /sys/fs/cgroup/*/kubepods; do
    [ -d "$cgroup" ] || continue
    find "$cgroup" -depth -type d -exec rmdir {} + 2>/dev/null || true
  done
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
