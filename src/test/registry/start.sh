#!/usr/bin/env bash
# Runs the tests' OCI registry (build.sh) on 127.0.0.1, a free port, over TLS from a CA made here and with HTTP
# basic authentication, until this script is stopped: a private registry as a user's nodes pull from.
#
#   start.sh <state-dir>
#
# When the registry answers (401 without credentials, 200 with them, over the CA), writes into <state-dir>:
#   ca.crt                the CA that signed the registry's certificate (trusted by nothing else)
#   certs/ca.crt          the same, in the --cert-dir layout podman wants
#   auth.json             the credentials as a Docker/podman auth file (podman --authfile, helm
#                         --registry-config, cosign through DOCKER_CONFIG=<state-dir>)
#   config.json           the same file under the name DOCKER_CONFIG looks for
#   env                   host=127.0.0.1:PORT, user=..., password=..., ca=<state-dir>/ca.crt
# and then <state-dir>/ready (the host). Stops the registry and deletes its blobs on SIGTERM, SIGINT, SIGHUP, the
# registry exiting, or the process that started it dying (checked every second); if this script is killed
# outright, the kernel kills the registry (its blob directory under $TMPDIR is then left behind).
# Exit status: 3 without a Go toolchain (from build.sh), 1 on any failure; the reason is on stderr.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
state="${1:?usage: start.sh <state-dir>}"
state="$(mkdir -p "$state" && cd "$state" && pwd)"
parent=$PPID
rm -f "$state/ready" "$state/env"

bin="$("$here/build.sh")"
run="$(mktemp -d "${TMPDIR:-/tmp}/dra-registry.XXXXXX")"
pid=""
cleanup() {
  trap - EXIT INT TERM HUP
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -rf "$run"
  rm -f "$state/ready" "$state/env"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

started=$(date +%s%N)
openssl_quiet() { openssl "$@" 2>/dev/null; }
openssl_quiet req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=dra-test-registry-ca" \
  -keyout "$run/ca.key" -out "$state/ca.crt"
openssl_quiet req -newkey rsa:2048 -nodes -subj "/CN=dra-test-registry" -keyout "$run/server.key" \
  -out "$run/server.csr"
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >"$run/san.ext"
openssl_quiet x509 -req -in "$run/server.csr" -CA "$state/ca.crt" -CAkey "$run/ca.key" -CAcreateserial -days 2 \
  -extfile "$run/san.ext" -out "$run/server.crt"
mkdir -p "$state/certs"
cp "$state/ca.crt" "$state/certs/ca.crt"
user=dra-test
password="$(openssl rand -hex 16)"
printf '%s:%s\n' "$user" "$password" >"$run/auth"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
host="127.0.0.1:$port"
setpriv --pdeathsig KILL "$bin" -addr "$host" -cert "$run/server.crt" -key "$run/server.key" -auth "$run/auth" \
  -blobs "$run/blobs" >"$state/registry.log" 2>&1 &
pid=$!

status() { curl -s -o /dev/null -w '%{http_code}' --cacert "$state/ca.crt" "$@" "https://$host/v2/" || true; }
for _ in $(seq 300); do
  kill -0 "$pid" 2>/dev/null || { echo "the registry exited:" >&2; cat "$state/registry.log" >&2; exit 1; }
  [ "$(status)" = 401 ] && break
  sleep 0.1
done
[ "$(status)" = 401 ] || { echo "the registry did not answer 401 without credentials within 30 s" >&2; exit 1; }
[ "$(status -u "$user:$password")" = 200 ] || { echo "the registry refused its own credentials" >&2; exit 1; }

auth="$(printf '%s:%s' "$user" "$password" | base64 -w0)"
printf '{"auths": {"%s": {"auth": "%s"}}}\n' "$host" "$auth" >"$state/auth.json"
cp "$state/auth.json" "$state/config.json"
cat >"$state/env" <<ENV
host=$host
user=$user
password=$password
ca=$state/ca.crt
ENV
echo "$host" >"$state/ready"
echo "registry $host usable in $(( ($(date +%s%N) - started) / 1000000 )) ms" >&2

while true; do
  kill -0 "$pid" 2>/dev/null || { echo "the registry exited:" >&2; tail -20 "$state/registry.log" >&2; exit 1; }
  kill -0 "$parent" 2>/dev/null || exit 0
  sleep 1
done
