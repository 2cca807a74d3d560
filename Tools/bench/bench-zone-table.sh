#!/usr/bin/env bash
# The time-zone table's size, load time and lookup cost, before and after: builds the table
# reader (Sources/SextantCore/TimeZone, without the follower) at REV and in the work tree with
# swiftc -O, then runs each on its own world table in one run (bench-zone-table-main.swift).
# Usage: Tools/bench/bench-zone-table.sh [REV] [--smoke]   (from the repository's root; REV: HEAD)
# --smoke (Tools/bench/bench-smoke.sh): the work tree's reader alone, that it builds and runs;
# --bin-dir is taken and ignored (the reader is built here, not by SwiftPM).
set -euo pipefail
rev=HEAD smoke=0
while [ $# -gt 0 ]; do
    case "$1" in
        --smoke) smoke=1 ;;
        --bin-dir) shift ;;
        -*) echo "bench-zone-table: unknown option $1" >&2; exit 2 ;;
        *) rev="$1" ;;
    esac
    shift
done
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
reader=(ZoneTable ZoneCell ZoneTableCheck ZoneTableFormat ZonePolyline)   # ZonePolyline: formats 3–4 (a REV before format 5)
build() {   # $1: a directory holding the reader's files; $2: the binary
    local files=()
    for f in "${reader[@]}"; do [ -f "$1/$f.swift" ] && files+=("$1/$f.swift"); done
    cp Tools/bench/bench-zone-table-main.swift "$1/main.swift"
    swiftc -O -module-name ZoneBench -o "$2" "${files[@]}" "$1/main.swift"
}
mkdir -p "$out/before" "$out/after"
cp Sources/SextantCore/TimeZone/*.swift "$out/after/"
rm -f "$out/after/ZoneFollower.swift" "$out/after/ZoneRules.swift"
build "$out/after" "$out/bench-after"
if [ "$smoke" = 1 ]; then
    "$out/bench-after" Traces/tz/zones.sxtz "work tree: "
    exit 0
fi
for f in "${reader[@]}"; do
    git show "$rev:Sources/SextantCore/TimeZone/$f.swift" > "$out/before/$f.swift" 2>/dev/null || rm -f "$out/before/$f.swift"
done
git show "$rev:Traces/tz/zones.sxtz" > "$out/before.sxtz"
build "$out/before" "$out/bench-before"
"$out/bench-before" "$out/before.sxtz" "before ($rev): "
"$out/bench-after" Traces/tz/zones.sxtz "after (work tree): "
