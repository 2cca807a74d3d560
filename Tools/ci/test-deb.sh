#!/usr/bin/env bash
# The .deb on a machine that has never seen Swift: a clean Debian bookworm root made with
# `debootstrap --variant=minbase` holding only Debian's packages (those the .deb's Depends
# names, pulled in by the same debootstrap), the .deb installed there with dpkg (which
# refuses it if Depends names a package that is not there), then, chrooted, with /opt/swift
# out of reach: no library missing, `sextantd --version`, the man pages and completion in
# place (the panel's page, and Leaflet from libjs-leaflet), and `sextantctl demo` to its end; then that root as an OCI image (Tools/packaging/oci-image.sh),
# read back and run by Tools/ci/check-oci.sh. Needs root (through sudo for a user) and
# deb.debian.org (or SEXTANT_DEBIAN_MIRROR).
#   bash Tools/ci/test-deb.sh [PACKAGE.deb]    default: the one Tools/packaging/package-deb.sh builds
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/sbin:/sbin"  # debootstrap and chroot, for a user's PATH too
for tool in debootstrap dpkg-deb chroot umoci; do
    command -v "$tool" > /dev/null || { echo "test-deb: $tool is missing (bash Tools/ci/setup.sh installs it)" >&2; exit 1; }
done
# Compressed with gzip: a quarter of xz's time, and the same files.
deb="${1:-$(SEXTANT_DEB_COMPRESSION=gzip bash Tools/packaging/package-deb.sh | tail -n 1)}"
# Built as the user; only the root and the chroot need root.
[ "$(id -u)" -eq 0 ] || exec sudo SEXTANT_DEBIAN_MIRROR="${SEXTANT_DEBIAN_MIRROR:-}" bash "$PWD/Tools/ci/test-deb.sh" "$(realpath "$deb")"
mirror="${SEXTANT_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SEXTANT_DEB_INSTALLED_BOUND_MIB="${SEXTANT_DEB_INSTALLED_BOUND_MIB:-115}"

root="$(mktemp -d "${TMPDIR:-/var/tmp}/sextant-deb-root.XXXXXX")"
mounts=()
cleanup() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" || umount -l "${mounts[i]}" || true; done
    # Never follow a mount still there into the host's /proc or /dev.
    rm -rf --one-file-system "$root"
}
trap cleanup EXIT

# Depends, e.g. "libc6 (>= 2.34), libgps28 (>= 3.22), libsqlite3-0 (>= 3.7.15)": the names.
packages="$(dpkg-deb --field "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | sed '/^$/d' | paste -sd, -)"
echo "test-deb: a bookworm root with $packages"
started=$SECONDS
debootstrap --variant=minbase --include="$packages" bookworm "$root" "$mirror" > "$root.debootstrap.log" 2>&1 \
    || { cat "$root.debootstrap.log" >&2; rm -f "$root.debootstrap.log"; exit 1; }
rm -f "$root.debootstrap.log"
echo "test-deb: debootstrap took $((SECONDS - started)) s"

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TMPDIR=/tmp LANG=C.UTF-8 "$@"; }

cp "$deb" "$root/tmp/sextant.deb"
in_root dpkg --install /tmp/sextant.deb
mount -t proc proc "$root/proc" && mounts+=("$root/proc")
mount --bind /dev "$root/dev" && mounts+=("$root/dev")

fail() { echo "test-deb: $*" >&2; exit 1; }
in_root test ! -e /opt/swift || fail "/opt/swift is visible in the root"
libraries="$(in_root ldd /usr/bin/sextant)"
! grep -q 'not found' <<< "$libraries" || fail "/usr/bin/sextant lacks libraries in a clean bookworm:"$'\n'"$libraries"
# Every program is installed, by its name, and runs (each a link to the multi-call binary).
for program in /usr/sbin/sextantd /usr/bin/sextantctl /usr/bin/sextant-panel /usr/bin/sextant-browser /usr/bin/sextant-sample-app; do
    in_root test -x "$program" || fail "$program is not installed"
    in_root "$program" --help > /dev/null || fail "$program --help failed"
done
# sextantctl finds the programs it runs (the bridge, the panel) where they are installed.
in_root sextantctl browser --help > /dev/null || fail "sextantctl browser does not find sextant-browser"
in_root sextantctl panel --help > /dev/null || fail "sextantctl panel does not find sextant-panel"
# What the package installs, bounded: five static binaries installed 276 MiB, the one
# multi-call binary (symbols kept, debug information stripped) about 103 MiB. A change that brings back a binary per program
# (or links something big) fails here.
installed_kib="$(dpkg-deb --field "$deb" Installed-Size)"
bound_kib=$((SEXTANT_DEB_INSTALLED_BOUND_MIB * 1024))
[ "$installed_kib" -le "$bound_kib" ] || fail "the package installs $((installed_kib / 1024)) MiB, over its bound of ${SEXTANT_DEB_INSTALLED_BOUND_MIB} MiB"
echo "test-deb: the package installs $((installed_kib / 1024)) MiB (bound ${SEXTANT_DEB_INSTALLED_BOUND_MIB} MiB)"
version="$(in_root sextantd --version)"
[ "$version" = "$(dpkg-deb --field "$deb" Version)" ] || fail "sextantd --version says '$version', the package $(dpkg-deb --field "$deb" Version)"
echo "test-deb: sextantd --version: $version"
for file in /usr/share/man/man8/sextantd.8.gz /usr/share/man/man1/sextantctl.1.gz /usr/share/man/man5/sextant-trace.5.gz /usr/share/man/man7/sextant-gpsd.7.gz \
    /usr/share/bash-completion/completions/sextantctl /usr/share/sextant/demo-walk.jsonl \
    /usr/share/sextant/panel/index.html /usr/share/javascript/leaflet/leaflet.js \
    /usr/share/sextant/tz/zones.sxtz /usr/share/sextant/tz/ATTRIBUTION.md; do
    in_root test -s "$file" || fail "$file is not installed"
done
[ "$(in_root sextant-panel --version)" = "$version" ] || fail "sextant-panel --version does not say $version"

# From / and with no checkout in sight: the demo finds the installed walk and daemon.
output="$(in_root sh -c 'cd / && sextantctl demo' 2>&1)" || fail "sextantctl demo failed:"$'\n'"$output"
grep -q '^▸ Done' <<< "$output" || fail "sextantctl demo did not reach its end:"$'\n'"$output"
grep -q "Replaying /usr/share/sextant/demo-walk.jsonl" <<< "$output" || fail "the demo did not replay the installed walk:"$'\n'"$output"
echo "test-deb: sextantctl demo ran to its end in a clean bookworm root"

# The same root as an OCI image (docs/farm.md), read back and run as its config says.
for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}"; done
mounts=()
rm -f "$root/tmp/sextant.deb"
image="${SEXTANT_OCI_OUT:-$PWD/.build/oci}/sextant_${version}_$(dpkg-deb --field "$deb" Architecture).oci.tar"
bash Tools/packaging/oci-image.sh "$root" "$version" "$image"
bash Tools/ci/check-oci.sh "$image" "$version"
