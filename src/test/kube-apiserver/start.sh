#!/usr/bin/env bash
# Runs etcd and kube-apiserver (from build.sh) on 127.0.0.1, each on free ports, with a temporary data
# directory and freshly generated certificates, until this script is stopped.
#
#   [DRA_KUBE_APISERVER_ADDRESS=<IPv4 address>] [DRA_KUBE_APISERVER_BIN=<file>] start.sh <state-dir>
#
# DRA_KUBE_APISERVER_ADDRESS: the address kube-apiserver listens on, advertises and is named by in its
# certificate and the kubeconfig, instead of 127.0.0.1 (which its certificate names all the same); it must be an
# address of this machine already. etcd stays on 127.0.0.1.
# DRA_KUBE_APISERVER_BIN: the kube-apiserver binary to run instead of build.sh's (another release's).
# DRA_KUBE_APISERVER_SERVICES=<IPv4 CIDR>: the Services' address range, whose first address (the Service
# kubernetes, which pods reach through kube-proxy) its certificate names; the Service kubernetes then has this API
# server as its endpoint. Without it: 10.96.0.0/16, and the Service kubernetes has no endpoint (nothing routes
# Services).
# When the API server answers /readyz, writes <state-dir>/kubeconfig (cluster admin, a bearer token; the
# server's CA is embedded) and then <state-dir>/ready (the server URL, one line).
# An outage on demand: while <state-dir>/stop-apiserver exists, kube-apiserver is stopped (etcd keeps running) and
# <state-dir>/apiserver-stopped says so; once that file is removed, kube-apiserver starts again with the same
# address, certificates and keys, and apiserver-stopped is removed when it answers /readyz (checked every 0.2 s).
# It starts again from the binary <state-dir>/apiserver-binary names, when that file is there (another release's,
# for an upgrade or a downgrade of the control plane). Stops both processes and
# deletes the data directory on SIGTERM, SIGINT, SIGHUP, on either process exiting, and when the process that
# started it dies (checked every second), however that one ends; if this script is killed outright, the kernel
# kills both processes (only the data directory under $TMPDIR is then left behind).
# Admission: the API server's default plugins plus PodSecurity (also a default, named so that it cannot go
# missing); MutatingAdmissionPolicy is GA and on by default in 1.37.
# Exit status: 3 without a Go toolchain (from build.sh), 1 on any failure; the reason is on stderr.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
state="${1:?usage: start.sh <state-dir>}"
parent=$PPID
mkdir -p "$state"
rm -f "$state/ready" "$state/kubeconfig" "$state/stop-apiserver" "$state/apiserver-stopped" "$state/apiserver-binary"

bin="$("$here/build.sh")/bin"
apiserver="${DRA_KUBE_APISERVER_BIN:-$bin/kube-apiserver}"
run="$(mktemp -d "${TMPDIR:-/tmp}/dra-kube-apiserver.XXXXXX")"
etcd_pid=""
api_pid=""
stop_pid() {
  local pid=$1
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  trap - EXIT INT TERM HUP
  local pid
  for pid in "$api_pid" "$etcd_pid"; do   # kube-apiserver first, then its etcd
    [ -n "$pid" ] && stop_pid "$pid"
  done
  rm -rf "$run"
  rm -f "$state/ready" "$state/kubeconfig" "$state/stop-apiserver" "$state/apiserver-stopped"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

address="${DRA_KUBE_APISERVER_ADDRESS:-127.0.0.1}"
free_port() {   # free_port [address]
  python3 -c 'import socket, sys; s=socket.socket(); s.bind((sys.argv[1], 0)); print(s.getsockname()[1])' \
    "${1:-127.0.0.1}"
}

started=$(date +%s%N)
openssl_quiet() { openssl "$@" 2>/dev/null; }
openssl_quiet req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=dra-test-ca" \
  -keyout "$run/ca.key" -out "$run/ca.crt"
openssl_quiet req -newkey rsa:2048 -nodes -subj "/CN=kube-apiserver" -keyout "$run/server.key" -out "$run/server.csr"
services="${DRA_KUBE_APISERVER_SERVICES:-10.96.0.0/16}"
sans="IP:127.0.0.1"
[ "$address" = 127.0.0.1 ] || sans+=",IP:$address"
reconciler=none
if [ -n "${DRA_KUBE_APISERVER_SERVICES:-}" ]; then
  sans+=",IP:$(python3 -c 'import ipaddress, sys; print(next(ipaddress.ip_network(sys.argv[1]).hosts()))' "$services")"
  reconciler=lease
fi
printf 'subjectAltName=%s,DNS:localhost,DNS:kubernetes.default.svc\n' "$sans" >"$run/san.ext"
openssl_quiet x509 -req -in "$run/server.csr" -CA "$run/ca.crt" -CAkey "$run/ca.key" -CAcreateserial -days 2 \
  -extfile "$run/san.ext" -out "$run/server.crt"
openssl_quiet genrsa -out "$run/sa.key" 2048
openssl_quiet rsa -in "$run/sa.key" -pubout -out "$run/sa.pub"
token="$(openssl rand -hex 24)"
printf '%s,dra-test-admin,dra-test-admin,system:masters\n' "$token" >"$run/tokens.csv"

etcd_port=$(free_port)
etcd_peer_port=$(free_port)
api_port=$(free_port "$address")

# --pdeathsig: should this script itself be killed (SIGKILL leaves no trap), the kernel kills both processes.
setpriv --pdeathsig KILL "$bin/etcd" --name dra-test --data-dir "$run/etcd" \
  --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
  --listen-peer-urls "http://127.0.0.1:$etcd_peer_port" \
  --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer_port" \
  --initial-cluster "dra-test=http://127.0.0.1:$etcd_peer_port" \
  --log-level warn >"$state/etcd.log" 2>&1 &
etcd_pid=$!

start_apiserver() {
  setpriv --pdeathsig KILL "$apiserver" \
  --bind-address="$address" --advertise-address="$address" --secure-port="$api_port" \
  --endpoint-reconciler-type="$reconciler" \
  --etcd-servers="http://127.0.0.1:$etcd_port" \
  --tls-cert-file="$run/server.crt" --tls-private-key-file="$run/server.key" --cert-dir="$run/certs" \
  --client-ca-file="$run/ca.crt" --token-auth-file="$run/tokens.csv" --authorization-mode=RBAC \
  --service-account-issuer=https://kubernetes.default.svc --service-account-key-file="$run/sa.pub" \
  --service-account-signing-key-file="$run/sa.key" --service-cluster-ip-range="$services" \
  --enable-admission-plugins=PodSecurity \
  --kubelet-preferred-address-types=InternalIP \
  >>"$state/kube-apiserver.log" 2>&1 &
  api_pid=$!
}

server="https://$address:$api_port"
# Waits until kube-apiserver answers /readyz; exits 1 when it or etcd ends first, or after 60 s.
await_ready() {
  local pid
  for _ in $(seq 600); do
    for pid in "$etcd_pid" "$api_pid"; do
      if ! kill -0 "$pid" 2>/dev/null; then
        echo "etcd or kube-apiserver exited during start-up; logs: $state/etcd.log, $state/kube-apiserver.log" >&2
        tail -20 "$state/kube-apiserver.log" >&2
        exit 1
      fi
    done
    if curl -fsS --cacert "$run/ca.crt" -H "Authorization: Bearer $token" "$server/readyz" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.1
  done
  echo "kube-apiserver not ready after 60 s; log: $state/kube-apiserver.log" >&2
  exit 1
}
: >"$state/kube-apiserver.log"
start_apiserver
await_ready

cat >"$state/kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
  - name: dra-test
    cluster:
      server: $server
      certificate-authority-data: $(base64 -w0 "$run/ca.crt")
users:
  - name: dra-test-admin
    user:
      token: $token
contexts:
  - name: dra-test
    context:
      cluster: dra-test
      user: dra-test-admin
current-context: dra-test
KUBECONFIG
echo "$server" >"$state/ready"
echo "kube-apiserver ready at $server in $(( ($(date +%s%N) - started) / 1000000 )) ms" >&2

while true; do
  if [ -e "$state/stop-apiserver" ] && [ -n "$api_pid" ]; then
    stop_pid "$api_pid"
    api_pid=""
    echo "kube-apiserver stopped on demand at $(date -u +%FT%T.%3NZ)" >&2
    : >"$state/apiserver-stopped"
  elif [ ! -e "$state/stop-apiserver" ] && [ -z "$api_pid" ]; then
    [ ! -f "$state/apiserver-binary" ] || apiserver="$(cat "$state/apiserver-binary")"
    echo "kube-apiserver starting again: $apiserver" >&2
    start_apiserver
    await_ready
    echo "kube-apiserver started again at $(date -u +%FT%T.%3NZ)" >&2
    rm -f "$state/apiserver-stopped"
  fi
  for pid in "$etcd_pid" $api_pid; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "etcd or kube-apiserver exited; logs in $state" >&2
      exit 1
    fi
  done
  kill -0 "$parent" 2>/dev/null || exit 0
  sleep 0.2
done
