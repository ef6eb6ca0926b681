#!/usr/bin/env bash
# Makes sure the build-stage image of src/main/docker/Dockerfile.jvm, eclipse-temurin:25-jdk, is in podman's local
# storage. Order: already there -> pull it -> build a stand-in under the same name from Debian bookworm
# (debootstrap --variant=minbase) plus a local Temurin 25 JDK copied to /opt/java/openjdk, with JAVA_HOME,
# PATH and LANG=C.UTF-8 set as the real image sets them. The stand-in is labelled so that it can be told
# apart from the real image.
#
# Prints one line on stdout: "base: <how>" (present/pulled/stand-in built ...). Exits non-zero with one
# message on stderr when none of these works (no podman, no JDK, no debootstrap, no Debian mirror).
#
# env: TEMURIN_25_HOME (default /usr/lib/jvm/temurin-25-jdk-amd64), DEBIAN_MIRROR (default deb.debian.org),
#      BASE_PULL=false skips the pull attempt (no registry reachable).
set -euo pipefail

base=eclipse-temurin:25-jdk
script_name=temurin-standin
# shellcheck source=standin-common.sh
source "$(dirname "$0")/standin-common.sh"
jdk=${TEMURIN_25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

exit_if_present
if [[ ${BASE_PULL:-true} == true ]] && timeout 30 "${podman[@]}" pull -q "docker.io/library/$base" >/dev/null 2>&1; then
  "${podman[@]}" tag "docker.io/library/$base" "$base"
  echo "base: $base pulled from docker.io"
  exit 0
fi

[[ -x $jdk/bin/java ]] || fail "cannot pull $base and no Temurin 25 JDK at $jdk to build a stand-in (set TEMURIN_25_HOME)"
"$jdk/bin/java" -version 2>&1 | grep -q '"25' || fail "$jdk is not a JDK 25"
command -v debootstrap >/dev/null || fail "cannot pull $base and debootstrap is not installed to build a stand-in"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rootfs=$work/rootfs
debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
  || { tail -n 20 "$work/debootstrap.log" >&2; fail "debootstrap of Debian bookworm from $mirror failed"; }
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
mkdir -p "$rootfs/opt/java/openjdk"
# The JDK as it is but its sources: the image links its runtime from this one without jmods (JEP 493), and
# jlink then checks every file of the modules it links (headers and man pages too) against the JDK's build.
# Symbolic links are followed: a packaged JDK links lib/security/cacerts to the system's trust store.
tar -C "$jdk" --dereference --exclude=./lib/src.zip -cf - . \
  | tar -C "$rootfs/opt/java/openjdk" -xf -
version=$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')
tar -C "$rootfs" -cf - . | "${podman[@]}" import --quiet \
  --change 'ENV JAVA_HOME=/opt/java/openjdk' \
  --change 'ENV PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change "LABEL $label=debian-bookworm-minbase+$version" \
  --change 'CMD ["jshell"]' \
  - "$base" >/dev/null
echo "base: $base stand-in built (Debian bookworm minbase + local Temurin $version)"
