#!/usr/bin/env bash
# Runs Schemathesis against a running sidecar: every operation of the OpenAPI document it serves, positive and
# negative data, every check (Schemathesis enables them all by default; a --checks option would override the
# per-operation settings of schemathesis.toml, so there is none). Exit status 0 only if no check failed. One worker:
# Python 3.11's ast.parse, which Hypothesis calls to describe its strategies, fails at random when several threads
# call it at once.
#   run.sh <api base URL> <management base URL> <report directory>
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
api="$1" management="$2" reports="$3"
schemathesis="$("$here/install.sh")"
mkdir -p "$reports"
cd "$reports"  # Schemathesis keeps its cache in the working directory
exec "$schemathesis" --config-file "$here/schemathesis.toml" run "$management/q/openapi.json" --url "$api" \
  --mode all --max-examples "${DRA_SCHEMATHESIS_EXAMPLES:-25}" --workers 1 \
  --seed "${DRA_SCHEMATHESIS_SEED:-$RANDOM$RANDOM}" \
  --report junit --report-dir "$reports" --no-color
