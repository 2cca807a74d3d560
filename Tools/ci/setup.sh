#!/usr/bin/env bash
# Installs the Debian packages Sextant builds and tests with. Safe to run again.
#   C libraries:  libgps-dev (gpsd's client library), libudev-dev, libsqlite3-dev
#                 libsystemd-dev (sd-bus: the D-Bus faces)
#   D-Bus tests:  dbus-daemon (a private bus), libglib2.0-bin (gdbus), systemd (busctl),
#                 iio-sensor-proxy (monitor-sensor, and the real service side by side)
#   tests:        gpsd, gpsd-tools, gpsd-clients, python3-gps (a real gpsd fed by gpsfake;
#                 the gpsd face's clients: gpspipe, cgps, the gps module, cc against libgps),
#                 tmux (cgps's screen, captured), gcc (cc),
#                 umockdev, gir1.2-umockdev-1.0, python3-gi (fake IIO sensors that libudev sees),
#                 sqlite3, util-linux (setpriv, prlimit), mount (mount, umount: a full tmpfs),
#                 coreutils (stdbuf, timeout, dd), libc-bin (ldd),
#                 librsvg2-bin (rsvg-convert renders `sextantctl trace plot`'s SVG to PNG),
#                 libxml2-utils (xmllint checks that SVG is well-formed XML)
#                 chromium (headless: the plot's HTML page hovered, zoomed and screenshot;
#                 the panel's page driven; the browser bridge's pages), python3-selenium and
#                 chromium-driver (the bridge's pytest fixture and examples/test_web_walk.py)
#   the panel:    libjs-leaflet (the map; sextant-panel serves Debian's copy of Leaflet)
#                 gmt-gshhg-low, python3-netcdf4 (the offline base map: GSHHG's coastlines and
#                 borders, LGPL, made into GeoJSON by Tools/dev/make-basemap.py below)
#                 systemd (systemd-analyze checks the units; systemd-socket-activate passes sockets)
#   benchmarks:   time, bc (Tools/bench/bench-nmea.sh's peak memory and rates; smoke runs in Tools/ci/test.sh)
#                 valgrind (callgrind: Tools/bench/bench-callgrind.py counts instructions per fix, CI's budget)
#   Python tests: python3-venv, python3-pytest (the client builds with the standard library)
#   PyPI:         gps3, a gpsd client library from PyPI, in a venv of its own
#                 (Tools/ci/setup-pypi-clients.sh; docs/compatibility.md); Playwright, the
#                 Python package only, driving Debian's chromium (Tools/ci/setup-pypi-web-clients.sh)
#                 (the client in clients/python and examples/, run by Tools/ci/test.sh)
#   Installing:   pandoc (the man pages from docs/), man-db and groff-base (Tools/ci/test-man.sh:
#                 man --warnings, lexgrog), dpkg-dev (dpkg-shlibdeps, for the .deb's Depends),
#                 debootstrap (Tools/ci/test-deb.sh: a clean bookworm root to install it in),
#                 umoci (Tools/packaging/oci-image.sh: that root as an OCI image)
set -euo pipefail

packages=(
    libgps-dev libudev-dev libsqlite3-dev pkg-config
    gpsd gpsd-tools gpsd-clients python3-gps tmux gcc
    umockdev gir1.2-umockdev-1.0 python3-gi
    sqlite3 util-linux mount coreutils libc-bin
    librsvg2-bin libxml2-utils
    chromium libjs-leaflet gmt-gshhg-low python3-netcdf4
    systemd
    time bc
    libsystemd-dev dbus-daemon libglib2.0-bin iio-sensor-proxy
    python3-venv python3-pytest
    pandoc man-db groff-base dpkg-dev debootstrap umoci
    # The GeoClue face's tests: GeoClue's demo client where-am-i; a web page in Firefox.
    geoclue-2-demo firefox-esr
    # GeoClue through the client libraries desktop apps use: GClue.Simple (GObject
    # introspection) and Qt Positioning's geoclue2 plugin (GeoClueLibraryClientsTests).
    gir1.2-geoclue-2.0 python3-pyqt5.qtpositioning libqt5positioning5-plugins
    # The Chromium bridge's pytest fixture and example: a Selenium-driven Chromium.
    python3-selenium chromium-driver
    # Trace files written by another tool, and Sextant's read back by it (GPSBabelTests).
    gpsbabel
    # Instructions per fix and per NMEA byte, counted: CI's budget (Tools/bench/bench-callgrind.py).
    valgrind
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: all system packages are installed"
else
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    echo "setup: installing ${missing[*]}"
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
bash "$(dirname "$0")/setup-pypi-clients.sh"
# The panel's offline base map, derived from gmt-gshhg-low into the user's cache (never the
# repository): sextant-panel's default --basemap.
/usr/bin/python3 "$(dirname "$0")/../dev/make-basemap.py" "${XDG_CACHE_HOME:-$HOME/.cache}/sextant/basemap.geojson"
bash "$(dirname "$0")/setup-pypi-web-clients.sh"
# The Debian gpsd package starts a system gpsd on :2947 where systemd runs; the tests
# start their own on free ports and do not need it.
