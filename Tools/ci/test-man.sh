#!/usr/bin/env bash
# The man pages: built from docs/*.md with pandoc (Tools/packaging/build-man.sh), each one formatted by
# man-db with `man --warnings` on an 80-column page (any warning fails: a table too wide, a
# line troff cannot adjust, a bad request), its NAME line parsed as mandb would (lexgrog),
# and its title and the sections its kind of page must have checked.
set -euo pipefail
cd "$(dirname "$0")/../.."
for tool in pandoc man lexgrog groff; do
    command -v "$tool" > /dev/null || { echo "test-man: $tool is missing (bash Tools/ci/setup.sh installs it)" >&2; exit 1; }
done
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
bash Tools/packaging/build-man.sh "$out"

failed=0
fail() { echo "test-man: $1" >&2; failed=1; }
pages=(sextantd.8 sextantctl.1 sextant-protocol.7 sextant-rules.7 sextant-gpsd.7 sextant-trace.5)
for page in "${pages[@]}"; do
    name="${page%.*}" section="${page##*.}"
    file="$out/man$section/$page"
    [ -s "$file" ] || { fail "$page was not built"; continue; }
    warnings="$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$file" 2>&1 > /dev/null)"
    [ -z "$warnings" ] || fail "$page: man --warnings says:"$'\n'"$warnings"
    grep -q "^\.TH \"$name\" \"$section\" " "$file" || fail "$page: no .TH \"$name\" \"$section\" line"
    whatis="$(lexgrog "$file" || true)"
    [[ "$whatis" == *"\"$name - "* ]] || fail "$page: lexgrog finds no NAME line: $whatis"
    required=(NAME DESCRIPTION "SEE ALSO")
    case "$section" in 1|8) required+=(SYNOPSIS "EXIT STATUS") ;; esac
    for heading in "${required[@]}"; do
        grep -qx "\.SH $heading" "$file" || fail "$page: no $heading section"
    done
done
[ "$failed" -eq 0 ] && echo "test-man: ${#pages[@]} pages, no warnings"
exit "$failed"
