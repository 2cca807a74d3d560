#!/usr/bin/env bash
# Builds the man pages from docs/*.md with pandoc: sextantd(8), sextantctl(1),
# sextant-protocol(7), sextant-rules(7), sextant-gpsd(7) (from docs/gpsd.md),
# sextant-trace(5), into OUT/man1, man5, man7, man8.
#   bash Tools/packaging/build-man.sh OUT
# Each docs/NAME.SECTION.md starts with "# NAME(SECTION)" and "## NAME", "## SYNOPSIS", ...:
# shifting the headings up one level makes the first the page's title (.TH) and the others
# its sections (.SH). Tools/packaging/man/man-tables.lua fits the tables to an 80-column page.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:?usage: Tools/packaging/build-man.sh OUT}"
command -v pandoc > /dev/null || { echo "build-man: pandoc is missing (bash Tools/ci/setup.sh installs it)" >&2; exit 1; }

version="$(sed -n 's/^public let sextantVersion = "\(.*\)"$/\1/p' Sources/SextantProtocol/Version.swift)"
[ -n "$version" ] || { echo "build-man: no sextantVersion in Sources/SextantProtocol/Version.swift" >&2; exit 1; }

# PAGE, or PAGE=SOURCE where the page's text is a doc of another name.
pages=(sextantd.8 sextantctl.1 sextant-protocol.7 sextant-rules.7 sextant-gpsd.7=docs/gpsd.md sextant-trace.5)
for entry in "${pages[@]}"; do
    page="${entry%%=*}"
    section="${page##*.}"
    source="docs/$page.md"
    [ "$entry" = "$page" ] || source="${entry#*=}"
    # The date of the page's last change, so that building twice gives the same file.
    date="$(git log -1 --format=%cs -- "$source" 2>/dev/null || true)"
    mkdir -p "$out/man$section"
    pandoc --standalone --from markdown --to man \
        --shift-heading-level-by=-1 --lua-filter Tools/packaging/man/man-tables.lua \
        --metadata footer="Sextant $version" --metadata header="Sextant Manual" \
        ${date:+--metadata date="$date"} \
        "$source" --output "$out/man$section/$page"
done
