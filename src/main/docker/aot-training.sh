#!/usr/bin/env bash
# AOT training run for Dockerfile.jvm: starts the application with the production JVM options (minus the
# -XX:AOT options that name the cache it is about to write) plus -XX:AOTCacheOutput, sends it the requests a sidecar typically gets
# (probes, metrics, reads of the sample tree), then stops it with SIGTERM; the JVM writes the cache at exit.
# Needs only bash (requests go through /dev/tcp, the runtime image has no curl).
#
# usage: aot-training.sh <app dir with quarkus-run.jar> <jvm-options argfile> <metadata root> <cache file>
# env:   JAVA (default: java), API_PORT (default 8089), MANAGEMENT_PORT (default 9000)
set -euo pipefail

app_dir=$1 options=$2 root=$3 cache=$4
java=${JAVA:-java}
api_port=${API_PORT:-8089}
management_port=${MANAGEMENT_PORT:-9000}

training_options=$(mktemp)
grep -v -e '^-XX:AOT' "$options" > "$training_options"
rm -f "$cache"

get() { # get <port> <path>: one HTTP/1.0 GET, succeeds if the answer is 2xx/3xx/4xx (the app is up)
  local response
  exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
  printf 'GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n' "$2" >&3
  response=$(cat <&3) || true
  exec 3<&-
  [[ $response =~ ^HTTP/1\.[01]\ [234] ]]
}

cd "$app_dir"
"$java" @"$training_options" -XX:AOTCacheOutput="$cache" \
  -Ddra.metadata.root="$root" -Dquarkus.http.port="$api_port" -Dquarkus.management.port="$management_port" \
  -jar quarkus-run.jar &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null || true' EXIT

for _ in $(seq 1 120); do
  if get "$management_port" /q/health/started 2>/dev/null; then break; fi
  kill -0 "$pid" 2>/dev/null || { echo "aot-training: the application exited during start-up" >&2; exit 1; }
  sleep 1
done
get "$management_port" /q/health/started || { echo "aot-training: the application did not start" >&2; exit 1; }

for _ in 1 2 3; do
  for path in /q/health/live /q/health/ready /q/metrics /q/openapi; do get "$management_port" "$path" || true; done
  for path in /claims /claims/gpu-claim /claims/gpu-claim/gpu /claims/gpu-claim/gpu/drivers/gpu.example.com \
      /claims/gpu-claim/gpu/devices/gpu-0/attributes/model /template-claims /template-claims/my-gpu/gpu \
      /claims/net-claim/nic /claims/no-such-claim/gpu /claims/INVALID/gpu; do
    get "$api_port" "$path" || true
  done
done

trap - EXIT
kill -TERM "$pid"
wait "$pid" || true   # 143 after SIGTERM is the expected end of a training run
test -s "$cache" || { echo "aot-training: no AOT cache was written to $cache" >&2; exit 1; }
echo "aot-training: wrote $cache ($(stat -c %s "$cache") bytes)"
