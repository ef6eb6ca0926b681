#!/usr/bin/env bash
# Makes sure the run-time base of src/main/docker/Dockerfile.jvm, gcr.io/distroless/base-nossl-debian12, is in
# podman's local storage. Order: already there -> pull it -> build a stand-in under the same name from the Debian
# bookworm packages the real image is made of (base-files, netbase, tzdata, libc6: the C library and nothing
# else; no shell, no package manager), unpacked with dpkg-deb -x, with the real image's users (root, nonroot
# 65532, nobody), /etc/nsswitch.conf, a 1777 /tmp and one /var/lib/dpkg/status.d entry per package, as the real
# image records them for scanners. The stand-in is labelled so that it can be told apart from the real image.
#
# Prints one line on stdout: "base: <how>". Exits non-zero with one message on stderr when none of these works
# (no podman, no apt-get/dpkg-deb, no Debian mirror).
#
# env: BASE_PULL=false skips the pull attempt (no registry reachable).
set -euo pipefail

base=gcr.io/distroless/base-nossl-debian12
script_name=distroless-standin
# shellcheck source=standin-common.sh
source "$(dirname "$0")/standin-common.sh"
packages=(base-files netbase tzdata libc6)

exit_if_present
if [[ ${BASE_PULL:-true} == true ]] && timeout 30 "${podman[@]}" pull -q "$base" >/dev/null 2>&1; then
  echo "base: $base pulled"
  exit 0
fi
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null \
  || fail "cannot pull $base and no apt-get/dpkg-deb to build a stand-in"
grep -q '^VERSION_CODENAME=bookworm' /etc/os-release \
  || fail "cannot pull $base and this machine's apt does not serve Debian bookworm (debian12) packages"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rootfs=$work/rootfs
mkdir -p "$rootfs" "$work/debs"
(cd "$work/debs" && apt-get download "${packages[@]}" >"$work/download.log" 2>&1) \
  || { tail -n 5 "$work/download.log" >&2; fail "apt-get download ${packages[*]} failed (apt-get update first?)"; }
mkdir -p "$rootfs/var/lib/dpkg/status.d"
versions=()
for deb in "$work"/debs/*.deb; do
  dpkg-deb -x "$deb" "$rootfs"
  name=$(dpkg-deb -f "$deb" Package)
  { dpkg-deb -f "$deb" Package Version Architecture Maintainer Installed-Size Source Homepage; echo "Status: install ok installed"; } \
    > "$rootfs/var/lib/dpkg/status.d/$name"
  versions+=("$name=$(dpkg-deb -f "$deb" Version)")
done
# What no program of the image reads (the real image drops the same); the copyright files stay.
rm -rf "$rootfs"/usr/share/{man,info,lintian,locale} "$rootfs"/usr/share/doc/*/changelog*
cat > "$rootfs/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin
nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin
EOF
cat > "$rootfs/etc/group" <<'EOF'
root:x:0:
nobody:x:65534:
tty:x:5:
staff:x:50:
nonroot:x:65532:
EOF
echo 'passwd: files
group: files
shadow: files
hosts: files dns' > "$rootfs/etc/nsswitch.conf"
install -d -m 1777 "$rootfs/tmp"
install -d -m 0700 "$rootfs/root"
install -d -m 0700 -o 65532 -g 65532 "$rootfs/home/nonroot"
tar -C "$rootfs" --numeric-owner -cf - . | "${podman[@]}" import --quiet --arch "$(dpkg --print-architecture)" \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "LABEL $label=debian-bookworm:${versions[*]}" \
  - "$base" >/dev/null
echo "base: $base stand-in built (Debian bookworm: ${versions[*]})"
