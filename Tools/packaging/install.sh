#!/usr/bin/env bash
# Builds Sextant for installing and installs it, as `make` and `make install` do.
#   bash Tools/packaging/install.sh build      release build, Swift runtime linked in, and the man pages
#   bash Tools/packaging/install.sh install    the same, then copies everything under DESTDIR/PREFIX
# Environment: PREFIX (default /usr/local), DESTDIR (default empty: the live system),
# SCRATCH (swift build's folder, default .build).
#
# The five programs are one multi-call binary, `sextant` (it runs the program it is named
# as), built with --static-swift-stdlib: it needs no Swift toolchain, only Debian's libgps,
# libudev, libsqlite3, libsystemd and glibc; the build fails if it still asks for a library
# of /opt/swift. One binary holds the Swift runtime, Foundation and the packages once, where
# five static binaries held them five times. What goes where:
#   PREFIX/bin/sextant                   the binary; links to it: PREFIX/sbin/sextantd,
#                                        PREFIX/bin/sextantctl, sextant-panel, sextant-browser,
#                                        sextant-sample-app
#   PREFIX/share/man/man{1,5,7,8}/        sextantctl(1), sextant-trace(5), sextant-protocol(7),
#                                        sextant-rules(7), sextantd(8), from docs/ by pandoc
#   PREFIX/share/bash-completion/completions/sextantctl, PREFIX/share/zsh/vendor-completions/
#   _sextantctl, PREFIX/share/fish/vendor_completions.d/sextantctl.fish
#   PREFIX/lib/systemd/system/            every unit in Tools/packaging/systemd/, its paths made PREFIX's
#   PREFIX/share/dbus-1/system.d/         every D-Bus policy in Tools/packaging/dbus/ (*.conf)
#   PREFIX/share/doc/sextant/             README.md and docs/*.md
#   PREFIX/share/sextant/demo-walk.jsonl  the walk `sextantctl demo` replays
#   PREFIX/share/sextant/panel/           the panel's page (web/panel/*); Leaflet is Debian's
#                                        libjs-leaflet's, in /usr/share/javascript/leaflet
#   PREFIX/share/sextant/tz/zones.sxtz    the world time-zone table (docs/timezone.md), with its
#                                        ATTRIBUTION.md (ODbL), also in PREFIX/share/doc/sextant/tz/
set -euo pipefail
cd "$(dirname "$0")/../.."
action="${1:-install}"
prefix="${PREFIX:-/usr/local}"
destdir="${DESTDIR:-}"
scratch="${SCRATCH:-.build}"
# The links to the multi-call binary in PREFIX/bin (sextantd's is in PREFIX/sbin).
programs=(sextantctl sextant-panel sextant-browser sextant-sample-app)

build() {
    swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product sextant
    bin="$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)"
    check_no_swift_runtime "$bin/sextant"
    rm -rf "$scratch/install-man" && bash Tools/packaging/build-man.sh "$scratch/install-man"
}

# A binary copied to a machine without the Swift toolchain must not look for it.
check_no_swift_runtime() {
    local libraries
    libraries="$(ldd "$1")"
    if grep -E 'not found|/opt/swift|libswift|libFoundation|libdispatch|libBlocksRuntime' <<< "$libraries"; then
        echo "install: $1 still needs the libraries above: it would not run without the Swift toolchain" >&2
        exit 1
    fi
}

install_tree() {
    local root="$destdir$prefix"
    install -d "$root/sbin" "$root/bin"
    install -m 0755 "$bin/sextant" "$root/bin/sextant"
    # Without its debug information (a third of its size); its symbols stay, so that a
    # crash's backtrace still names functions.
    strip --strip-debug "$root/bin/sextant"
    local program
    for program in "${programs[@]}"; do ln -sfn sextant "$root/bin/$program"; done
    ln -sfn ../bin/sextant "$root/sbin/sextantd"

    for page in "$scratch"/install-man/man*/*; do
        install -D -m 0644 "$page" "$root/share/man/$(basename "$(dirname "$page")")/$(basename "$page")"
    done

    install -d "$root/share/bash-completion/completions" "$root/share/zsh/vendor-completions" "$root/share/fish/vendor_completions.d"
    "$bin/sextant" sextantctl --generate-completion-script bash > "$root/share/bash-completion/completions/sextantctl"
    "$bin/sextant" sextantctl --generate-completion-script zsh > "$root/share/zsh/vendor-completions/_sextantctl"
    "$bin/sextant" sextantctl --generate-completion-script fish > "$root/share/fish/vendor_completions.d/sextantctl.fish"
    chmod 0644 "$root"/share/{bash-completion/completions/sextantctl,zsh/vendor-completions/_sextantctl,fish/vendor_completions.d/sextantctl.fish}

    install_units "$root/lib/systemd/system"
    install_matching Tools/packaging/dbus '*.conf' "$root/share/dbus-1/system.d"
    install -D -m 0644 Tools/packaging/systemd/sextant.sysusers "$root/lib/sysusers.d/sextant.conf"

    install -d "$root/share/doc/sextant" "$root/share/sextant"
    install -m 0644 README.md docs/*.md "$root/share/doc/sextant/"
    install -m 0644 Traces/demo-walk.jsonl "$root/share/sextant/demo-walk.jsonl"
    install_panel "$root/share/sextant/panel"
    install -D -m 0644 Traces/tz/zones.sxtz "$root/share/sextant/tz/zones.sxtz"
    install -D -m 0644 Traces/tz/ATTRIBUTION.md "$root/share/sextant/tz/ATTRIBUTION.md"
    install -D -m 0644 Traces/tz/ATTRIBUTION.md "$root/share/doc/sextant/tz/ATTRIBUTION.md"
    echo "install: installed under $root"
}

# The units name the daemon as the .deb installs it (/usr/sbin), or by a /usr/local path (a
# copy by hand); installed, they name this PREFIX's, sextantd being in sbin (their comments are left as written).
install_units() {
    local target="$1" unit
    for unit in Tools/packaging/systemd/*.service Tools/packaging/systemd/*.socket Tools/packaging/systemd/*.target Tools/packaging/systemd/*.timer; do
        [ -e "$unit" ] || continue
        install -d "$target"
        sed -e "/^[#;]/!{s#/usr\(/local\)\?/s\?bin/sextantd\b#$prefix/sbin/sextantd#g;" \
            -e "s#/usr/local/bin/#$prefix/bin/#g; s#/usr/local/share/#$prefix/share/#g}" \
            "$unit" > "$target/$(basename "$unit")"
        chmod 0644 "$target/$(basename "$unit")"
    done
}

# The panel's page: every file of web/panel/, its subfolders kept (flat today).
install_panel() {
    local target="$1" file
    install -d "$target"
    (cd web/panel && find . -type f -print) | while read -r file; do
        install -D -m 0644 "web/panel/$file" "$target/$file"
    done
}

# Every file of DIRECTORY matching PATTERN, if there are any.
install_matching() {
    local directory="$1" pattern="$2" target="$3" file
    for file in "$directory"/$pattern; do
        [ -e "$file" ] || continue
        install -D -m 0644 "$file" "$target/$(basename "$file")"
    done
}

case "$action" in
    build) build ;;
    install) build && install_tree ;;
    *) echo "usage: Tools/packaging/install.sh build|install (PREFIX, DESTDIR, SCRATCH from the environment)" >&2; exit 64 ;;
esac
