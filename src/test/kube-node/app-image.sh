#!/usr/bin/env bash
# Writes an OCI archive of the real node's app image to <archive>: Debian's static busybox (/bin/sh and the
# usual tools), curl and python3 copied from this machine's Debian packages with the libraries they load, and
# <pause> as /pause, its entrypoint, so that the same image is also the pod sandbox's image (a container of it
# runs what its pod's command says). No registry is needed.
#
#   app-image.sh <pause-binary> <image-name> <archive>
#
# Needs podman (through ../image/podman.sh), busybox-static, curl and python3 (Debian's /usr/bin/python3).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
pause="${1:?usage: app-image.sh <pause-binary> <image-name> <archive>}"
name="${2:?image name}"
archive="${3:?archive}"

python=/usr/bin/python3
for tool in /bin/busybox /usr/bin/curl "$python"; do
  [ -x "$tool" ] || { echo "app-image: $tool is missing (apt-get install busybox-static curl python3)" >&2; exit 1; }
done
python_version="$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"

rootfs="$(mktemp -d)"
trap 'rm -rf "$rootfs"' EXIT
mkdir -p "$rootfs"/{bin,usr/bin,tmp,etc}
chmod 1777 "$rootfs/tmp"
cp /bin/busybox "$rootfs/bin/busybox"
for applet in $(/bin/busybox --list); do
  [ -e "$rootfs/bin/$applet" ] || ln -s busybox "$rootfs/bin/$applet"
done
cp /usr/bin/curl "$rootfs/usr/bin/curl"
cp "$(readlink -f "$python")" "$rootfs/usr/bin/python3"
cp "$pause" "$rootfs/pause"
# The shared libraries both programs load, at the paths the dynamic loader looks them up.
for lib in $( (ldd /usr/bin/curl; ldd "$python") | awk '/=>/ { print $3 } /^\t\// { print $1 }' | sort -u); do
  mkdir -p "$rootfs$(dirname "$lib")"
  cp -L "$lib" "$rootfs$lib"
done
# The standard library without its tests.
mkdir -p "$rootfs/usr/lib"
tar -C /usr/lib --exclude="python$python_version/test" --exclude='__pycache__' -cf - "python$python_version" \
  | tar -C "$rootfs/usr/lib" -xf -
printf 'root:x:0:0:root:/root:/bin/sh\napp:x:1001:1001:app:/tmp:/bin/sh\n' >"$rootfs/etc/passwd"
printf 'root:x:0:\napp:x:1001:\n' >"$rootfs/etc/group"

podman=("$here/../image/podman.sh")
tar -C "$rootfs" -cf - . | "${podman[@]}" import --quiet \
  --change 'ENV PATH=/usr/bin:/bin' --change 'ENTRYPOINT ["/pause"]' - "$name" >/dev/null
rm -f "$archive"
"${podman[@]}" save --quiet --format oci-archive -o "$archive" "$name"
