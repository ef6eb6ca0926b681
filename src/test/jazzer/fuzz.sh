#!/usr/bin/env bash
# Grows the coverage-guided corpus of the differential test: runs the decoder under Jazzer (libFuzzer's
# coverage-guided mutation for the JVM, com.code-intelligence:jazzer from Maven Central at the version below, kept
# off the project's own class path) for SECONDS (default 600), then merges into
# src/test/resources/fixtures/oracle-corpus only the inputs that reach code the corpus does not reach yet.
# GoOracleDifferentialIT replays that corpus against the Go reader every run; commit what this adds.
#
# Usage: src/test/jazzer/fuzz.sh [SECONDS]   (from anywhere; needs Java and network access to Maven Central once)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
project="$(cd "$here/../../.." && pwd)"
seconds="${1:-600}"
cd "$project"
work=target/jazzer
mkdir -p "$work/found" "$work/crashes"
jazzer_version=0.24.0
./mvnw -q -B test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$work/classpath"
for artifact in jazzer jazzer-api; do
  ./mvnw -q -B dependency:copy -Dartifact="com.code-intelligence:$artifact:$jazzer_version" -DoutputDirectory="$work"
done
scope='dev.dra.sidecar.decode.**:dev.dra.sidecar.model.**:com.fasterxml.jackson.core.**'
cp="$work/jazzer-$jazzer_version.jar:$work/jazzer-api-$jazzer_version.jar:target/test-classes:target/classes:$(cat "$work/classpath")"
jazzer=(java -cp "$cp" com.code_intelligence.jazzer.Jazzer --target_class=dev.dra.sidecar.decode.DecoderFuzzTarget
  "--instrumentation_includes=$scope" "--custom_hook_includes=$scope"
  -dict="$here/metadata.dict" -max_len=4096 -timeout=30 -artifact_prefix="$work/crashes/")
corpus=src/test/resources/fixtures/oracle-corpus
# seeds: the corpus so far and the conformance fixtures
find src/test/resources/fixtures/conformance/root -name '*-metadata.json' -print0 | while IFS= read -r -d '' f; do
  cp "$f" "$work/found/seed-$(sha1sum < "$f" | cut -c1-16)"
done
"${jazzer[@]}" -max_total_time="$seconds" "$work/found" "$corpus"
before=$(ls "$corpus" | wc -l)
"${jazzer[@]}" -merge=1 "$corpus" "$work/found"
echo "corpus: $before -> $(ls "$corpus" | wc -l) inputs in $corpus" >&2
