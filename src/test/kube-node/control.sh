# Sourced (not run) by start.sh: control <verb> <name> [<bin-dir>] does what component.sh asked of the running node
# and prints the answer component.sh passes on ("ok ..." when done). Needs start.sh's pids, names and commands (one
# entry per component, "" for the API server, which component.sh does not restart), run_marked, stop_process, state
# and releases.sh's k8s.
#   stop:  SIGTERM (SIGKILL after 10 s), waits until the process is gone; the component counts as stopped.
#   start: the same command line as at the node's start, its output appended to its log; with <bin-dir>, a
#          Kubernetes command (k8s) runs <bin-dir>'s binary of its name instead, from then on.

control() {
  local verb=$1 name=$2 dir=$3 i
  for i in "${!names[@]}"; do
    [ "${names[i]}" = "$name" ] && [ "$name" != apiserver ] || continue
    case "$verb" in
      stop)
        [ -n "${pids[i]}" ] || { echo "$name is not running"; return; }
        stop_process "${pids[i]}"
        wait "${pids[i]}" 2>/dev/null || true
        pids[i]=""
        echo "ok $name stopped" ;;
      start)
        [ -z "${pids[i]}" ] || { echo "$name is running already"; return; }
        if [ -n "$dir" ]; then
          [ -n "${k8s[$name]:-}" ] || { echo "$name is not a Kubernetes command: it has no other release"; return; }
          [ -x "$dir/$name" ] || { echo "no $name in $dir"; return; }
          commands[i]="${commands[i]//"${k8s[$name]}"/"$dir/$name"}"
          k8s[$name]="$dir/$name"
        fi
        echo "--- started again by component.sh: ${k8s[$name]:-the same command}" >>"$state/$name.log"
        (eval "run_marked KILL ${commands[i]}") >>"$state/$name.log" 2>&1 &
        pids[i]=$!
        echo "ok $name started, pid ${pids[i]}" ;;
      *) echo "unknown request $verb" ;;
    esac
    return
  done
  echo "no component $name (one of: ${names[*]/apiserver/})"
}
