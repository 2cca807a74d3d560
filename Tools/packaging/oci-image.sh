#!/usr/bin/env bash
# An OCI image of the installed .deb, from a Debian root that has it installed (the clean
# bookworm root Tools/ci/test-deb.sh makes and checks), built with umoci: no registry, no
# container engine, no daemon. Written as an OCI archive (a tar of an OCI image layout),
# which `podman load`, `skopeo copy oci-archive:…` and containerd's `ctr images import` read.
#   Tools/packaging/oci-image.sh ROOT VERSION OUT.tar    (as root: the files keep their owners)
#
# What the image is, for docs/farm.md and deploy/kubernetes/:
#   - one layer: ROOT less /proc, /dev, /sys and /tmp's contents, apt's caches and lists;
#   - user 10001:10001 (`sextant`), so Kubernetes' runAsNonRoot can check it by number;
#   - /run/sextant and /var/lib/sextant owned by that user, mode 0700: the daemon refuses
#     directories another user may write (docs/security.md);
#   - entrypoint sextantd, default arguments those directories with --no-iio (a container
#     sees no IIO device unless given one) and --no-gpsd;
#   - port 2947/tcp declared for the gpsd face (served only with --gpsd-listen).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 ROOT VERSION OUT.tar" >&2; exit 64; }
root="$1" version="$2" out="$3"
command -v umoci > /dev/null || { echo "oci-image: umoci is missing (bash Tools/ci/setup.sh installs it)" >&2; exit 1; }
[ -x "$root/usr/sbin/sextantd" ] || { echo "oci-image: $root has no /usr/sbin/sextantd: install the .deb there first" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/var/tmp}/sextant-oci.XXXXXX")"
trap 'rm -rf --one-file-system "$work"' EXIT
layout="$work/layout" bundle="$work/bundle" tag="sextant:$version"
uid=10001

umoci init --layout "$layout"
umoci new --image "$layout:$version"
umoci unpack --image "$layout:$version" "$bundle" > /dev/null
rootfs="$bundle/rootfs"
# --one-file-system: a /proc or /dev still mounted in ROOT is not copied into the image.
tar -C "$root" --one-file-system --numeric-owner \
    --exclude=./proc/* --exclude=./sys/* --exclude=./dev/* --exclude=./tmp/* \
    --exclude=./var/cache/apt/* --exclude=./var/lib/apt/lists/* -cf - . | tar -C "$rootfs" --numeric-owner -xpf -
# The root directory as every Debian root has it: ROOT may be a mktemp directory, mode 0700,
# which would keep the image's user out of its own file system.
chmod 0755 "$rootfs"
grep -q "^sextant:" "$rootfs/etc/group" || echo "sextant:x:$uid:" >> "$rootfs/etc/group"
grep -q "^sextant:" "$rootfs/etc/passwd" \
    || echo "sextant:x:$uid:$uid:Sextant emulated device:/var/lib/sextant:/usr/sbin/nologin" >> "$rootfs/etc/passwd"
install -d -o "$uid" -g "$uid" -m 0700 "$rootfs/run/sextant" "$rootfs/var/lib/sextant"
umoci repack --image "$layout:$version" "$bundle" > /dev/null

umoci config --image "$layout:$version" \
    --config.user "$uid:$uid" \
    --config.entrypoint /usr/sbin/sextantd \
    --config.cmd --runtime-dir --config.cmd /run/sextant --config.cmd --state-dir --config.cmd /var/lib/sextant \
    --config.cmd --no-iio --config.cmd --no-gpsd \
    --config.env SEXTANT_RUNTIME_DIR=/run/sextant \
    --config.workingdir / \
    --config.volume /var/lib/sextant \
    --config.exposedports 2947/tcp \
    --config.label org.opencontainers.image.title=sextant \
    --config.label org.opencontainers.image.version="$version" \
    --config.label org.opencontainers.image.description="Emulated phone location and orientation services (sextantd)" \
    --history.comment "the sextant $version .deb installed in a debootstrapped Debian bookworm"
umoci gc --layout "$layout"
mkdir -p "$(dirname "$out")"
tar -C "$layout" --numeric-owner -cf "$out.partial" . && mv "$out.partial" "$out"
echo "oci-image: $out ($tag, $(du -h "$out" | cut -f1))"
