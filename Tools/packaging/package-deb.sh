#!/usr/bin/env bash
# Builds a Debian package of Sextant with dpkg-deb, from the tree `make install` makes with
# PREFIX=/usr, and prints its path (.build/deb/sextant_VERSION_ARCH.deb, or under SCRATCH).
#   bash Tools/packaging/package-deb.sh            (SCRATCH: swift build's folder, default .build)
# Depends is what dpkg-shlibdeps finds the multi-call binary needs (libc6, libgps28, libudev1,
# libsqlite3-0, libsystemd0, libxml2 with their lowest versions, from Debian's symbols files): the Swift runtime
# is linked in; and libjs-leaflet, the map of the panel (sextant-panel serves Debian's copy). Man pages and the changelog are compressed as Debian does.
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch="${SCRATCH:-.build}"
out="$scratch/deb"
stage="$out/debian/sextant"  # where dpkg-shlibdeps expects a package's files
version="$(sed -n 's/^public let sextantVersion = "\(.*\)"$/\1/p' Sources/SextantProtocol/Version.swift)"
architecture="$(dpkg --print-architecture)"
# The maintainer is who made the commit built (Debian wants a name and an address).
maintainer="$(git log -1 --format='%an <%ae>' 2>/dev/null || true)"
maintainer="${maintainer:-Sextant maintainers <root@localhost>}"
[ -n "$version" ] || { echo "package-deb: no sextantVersion in Sources/SextantProtocol/Version.swift" >&2; exit 1; }

rm -rf "$stage" && mkdir -p "$stage"
PREFIX=/usr DESTDIR="$(cd "$stage" && pwd)" SCRATCH="$scratch" bash Tools/packaging/install.sh install
find "$stage/usr/share/man" -type f -exec gzip -9n {} +

doc="$stage/usr/share/doc/sextant"
cat > "$doc/copyright" << EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: Sextant
Comment: Built from the Sextant source tree, commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown).
 Statically linked: the Swift standard library, Foundation and the Swift packages named in
 Package.swift (swift-nio, swift-argument-parser, swift-log, swift-service-lifecycle, GRDB,
 hummingbird, hummingbird-websocket),
 each under its own licence (Apache-2.0, MIT).

Files: usr/share/sextant/tz/*
Copyright: OpenStreetMap contributors, timezone-boundary-builder, tzf-dist
License: ODbL-1.0
 The time-zone table is a derived database of timezone-boundary-builder's data (through
 tzfpy), offered under the Open Database License 1.0; see /usr/share/sextant/tz/ATTRIBUTION.md.
EOF
printf 'sextant (%s) unstable; urgency=medium\n\n  * Built from the source tree by Tools/packaging/package-deb.sh.\n\n -- %s  %s\n' \
    "$version" "$maintainer" "$(date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")" | gzip -9n > "$doc/changelog.gz"

# dpkg-shlibdeps reads debian/control (a minimal one beside the staged tree is enough) and
# knows a package's tree by its DEBIAN directory.
mkdir -p "$stage/DEBIAN"
printf 'Source: sextant\n\nPackage: sextant\nArchitecture: any\n' > "$out/debian/control"
depends="$(cd "$out" && dpkg-shlibdeps -O \
    debian/sextant/usr/bin/sextant \
    | sed -n 's/^shlibs:Depends=//p')"
[ -n "$depends" ] || { echo "package-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

cat > "$stage/DEBIAN/control" << EOF
Package: sextant
Version: $version
Architecture: $architecture
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends, libjs-leaflet
Recommends: gpsd
Suggests: chromium
Section: misc
Priority: optional
Description: emulated phone location and orientation services for Linux apps
 sextantd serves apps a phone's location, device and interface orientation and
 posture, with the permission prompts and rules of a phone, from a live gpsd,
 Linux IIO sensors, recorded traces or values set by hand. sextantctl controls
 it: permissions, prompts, replays, recording; sextantctl demo shows it all;
 sextantctl panel serves the same controls, and a live map, in the browser.
EOF
# The service's static user (lib/sysusers.d/sextant.conf), made where systemd-sysusers is.
cat > "$stage/DEBIAN/postinst" << 'EOF'
#!/bin/sh
set -e
if [ "$1" = configure ] && command -v systemd-sysusers > /dev/null; then
    systemd-sysusers sextant.conf
fi
EOF
chmod 0755 "$stage/DEBIAN/postinst"
deb="$out/sextant_${version}_${architecture}.deb"
# xz as Debian does; SEXTANT_DEB_COMPRESSION=gzip when time counts more than size (CI).
dpkg-deb --root-owner-group -Z"${SEXTANT_DEB_COMPRESSION:-xz}" --build "$stage" "$deb" > /dev/null
echo "$deb"
