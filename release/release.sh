#!/usr/bin/env bash
# Publishes one release: the sidecar image (one index over every platform), its signature and SBOM attestation,
# and the Helm chart with that image stamped in. The release workflow (.github/workflows/release.yml) runs it for
# linux/amd64 and linux/arm64 against the public registry; ReleaseIT and RegistryPullOnNodeIT run it for
# linux/amd64 against the tests' registry (src/test/registry). docs/release.md says what each step gives.
#
#   release.sh <image-repository> <chart-repository> <out-dir>
#     e.g. release.sh ghcr.io/dra-dev/dra-metadata-sidecar ghcr.io/dra-dev/charts target/release
#
# Needs target/quarkus-app from `./mvnw package` (the version is pom.xml's, from target/maven-archiver), podman,
# helm, cosign and syft. Environment:
#   PLATFORMS          comma-separated, default linux/amd64
#   REGISTRY_AUTH_FILE the credentials (podman's auth file; helm and cosign read the same file)
#   REGISTRY_CA        a CA file to trust for the registries, beyond the system's (the tests' registry)
#   COSIGN_KEY         the signing key (cosign.key), with COSIGN_PASSWORD
#   COSIGN_TLOG        true (default): record the signature in the public transparency log (Rekor); false for a
#                      registry the log cannot know (the tests')
#   RELEASE_SIGN       true (default); false skips the SBOM, the signature and the attestation (a test of the
#                      pull path alone: RegistryPullOnNodeIT; never the release workflow)
#   PODMAN HELM COSIGN SYFT   the commands, default podman, helm, cosign, syft from PATH
# Writes into <out-dir>: sbom.spdx.json (when signing), the stamped chart's .tgz, release-notes.md (the CHANGELOG's section of
# the version) and release.env (version, image=<repository>@<digest>, chart=oci://<chart-repository>/<name>),
# and prints release.env. Any failing step stops it (exit 1).
set -euo pipefail
repository="${1:?usage: release.sh <image-repository> <chart-repository> <out-dir>}"
chart_repository="${2:?usage: release.sh <image-repository> <chart-repository> <out-dir>}"
out="${3:?usage: release.sh <image-repository> <chart-repository> <out-dir>}"
cd "$(dirname "$0")/.."
podman="${PODMAN:-podman}"
helm="${HELM:-helm}"
cosign="${COSIGN:-cosign}"
syft="${SYFT:-syft}"
platforms="${PLATFORMS:-linux/amd64}"
sign="${RELEASE_SIGN:-true}"
[ "$sign" != true ] || : "${COSIGN_KEY:?COSIGN_KEY names the signing key}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

version="$(sed -n 's/^version=//p' target/maven-archiver/pom.properties)"
case "$version" in ''|*-SNAPSHOT) echo "release.sh: no release version in target/maven-archiver ($version)" >&2; exit 1;; esac
grep -q "^## \[$version\]" CHANGELOG.md || { echo "release.sh: CHANGELOG.md has no section [$version]" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
registry_args=()
helm_args=()
cosign_env=()
if [ -n "${REGISTRY_AUTH_FILE:-}" ]; then
  registry_args+=(--authfile "$REGISTRY_AUTH_FILE")
  helm_args+=(--registry-config "$REGISTRY_AUTH_FILE")
  mkdir "$tmp/docker"
  cp "$REGISTRY_AUTH_FILE" "$tmp/docker/config.json"
  cosign_env+=("DOCKER_CONFIG=$tmp/docker")
fi
if [ -n "${REGISTRY_CA:-}" ]; then
  mkdir "$tmp/certs"
  cp "$REGISTRY_CA" "$tmp/certs/ca.crt"
  registry_args+=(--cert-dir "$tmp/certs")
  helm_args+=(--ca-file "$REGISTRY_CA")
  cosign_env+=("SSL_CERT_FILE=$REGISTRY_CA")
fi
cosign_tlog=("--tlog-upload=${COSIGN_TLOG:-true}")
[ "${COSIGN_TLOG:-true}" = true ] || cosign_tlog+=(--use-signing-config=false)

# The image: the README's build (src/main/docker/Dockerfile.jvm, same arguments) once per platform, into one
# manifest list pushed by digest; that digest is what the chart pins.
local_name="localhost/dra-metadata-sidecar-release:$version"
"$podman" manifest rm "$local_name" >/dev/null 2>&1 || true
"$podman" build --platform "$platforms" --manifest "$local_name" -f src/main/docker/Dockerfile.jvm \
  --build-arg VERSION="$version" --build-arg REVISION="$(git rev-parse HEAD)" . >&2
"$podman" manifest push ${registry_args[@]+"${registry_args[@]}"} --all --digestfile "$out/digest" "$local_name" \
  "docker://$repository:$version" >&2
digest="$(cat "$out/digest")"
rm -f "$out/digest"
image="$repository@$digest"

# The SBOM of the image (Syft, SPDX JSON), attached as a signed attestation, and the image's signature.
"$podman" manifest rm "$local_name" >/dev/null
rm -f "$out/sbom.spdx.json"
if [ "$sign" = true ]; then
  env ${cosign_env[@]+"${cosign_env[@]}"} SYFT_CHECK_FOR_APP_UPDATE=false "$syft" scan --quiet "registry:$image" \
    -o "spdx-json=$out/sbom.spdx.json"
  env ${cosign_env[@]+"${cosign_env[@]}"} "$cosign" sign --yes --key "$COSIGN_KEY" "${cosign_tlog[@]}" "$image" >&2
  env ${cosign_env[@]+"${cosign_env[@]}"} "$cosign" attest --yes --key "$COSIGN_KEY" "${cosign_tlog[@]}" --type spdxjson \
    --predicate "$out/sbom.spdx.json" "$image" >&2
fi

# The chart, with the image just pushed written into its values: installed with no values, it injects that
# image, pinned.
chart="$tmp/chart"
mkdir "$chart"
cp -r deploy/helm/dra-metadata-sidecar "$chart/"
python3 - "$chart/dra-metadata-sidecar/values.yaml" "$repository" "$digest" <<'PY'
import re, sys
path, repository, digest = sys.argv[1:]
text = open(path).read()
block = re.search(r"(?m)^image:\n(?:(?:  .*|\s*#.*)?\n)+", text)
stamped = re.sub(r"(?m)^  repository: .*$", "  repository: " + repository, block.group(0), count=1)
stamped = re.sub(r'(?m)^  digest: ""$', '  digest: "' + digest + '"', stamped, count=1)
if stamped.count(repository) != 1 or stamped.count(digest) != 1:
    sys.exit("release.sh: values.yaml's image block has no repository or digest line to stamp")
open(path, "w").write(text.replace(block.group(0), stamped))
PY
rm -f "$out"/dra-metadata-sidecar-*.tgz
"$helm" package "$chart/dra-metadata-sidecar" --destination "$out" >&2
"$helm" push ${helm_args[@]+"${helm_args[@]}"} "$out/dra-metadata-sidecar-$version.tgz" "oci://$chart_repository" >&2

# The release notes: the CHANGELOG's section of this version, without its heading.
awk -v heading="## [$version]" 'index($0, heading) == 1 { on = 1; next } on && /^## \[/ { exit } on' CHANGELOG.md \
  >"$out/release-notes.md"

cat >"$out/release.env" <<ENV
version=$version
image=$image
chart=oci://$chart_repository/dra-metadata-sidecar
ENV
cat "$out/release.env"
