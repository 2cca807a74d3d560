#!/usr/bin/env bash
# Bash completion of sextantctl, driven as bash drives it: the script that
# `sextantctl --generate-completion-script bash` prints is sourced in a fresh bash, which
# sets COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT for a command line, calls the
# completion function and prints COMPREPLY. Covers file paths (replay start, trace info,
# trace convert, record start), the words the daemon accepts (prompts answer, permissions
# set, rotate, --speed), and app and prompt ids asked of a live sextantd (and nothing,
# silently, when no daemon runs).
#   bash Tools/ci/test-completion.sh [BIN]      BIN: where sextantd, sextantctl and
#                                            sextant-sample-app are (default: swift build's)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$(cd "${1:-$(swift build --show-bin-path)}" && pwd)"
work="$(mktemp -d)"
daemon="" app=""
cleanup() {
    [ -z "$app" ] || kill "$app" 2> /dev/null || true
    [ -z "$daemon" ] || { kill "$daemon" 2> /dev/null; wait "$daemon" 2> /dev/null; } || true
    rm -rf "$work"
}
trap cleanup EXIT

# The completion calls `sextantctl` by the name typed (COMP_WORDS[0]), as in a real shell.
export PATH="$bin:$PATH"
script="$work/sextantctl.bash"
sextantctl --generate-completion-script bash > "$script"

# The candidates bash offers for a command line whose last word is the one completed.
complete_line() {
    bash -c '
        script="$1"; shift
        source "$script"
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _sextantctl sextantctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        printf "%s\n" "${COMPREPLY[@]}" | sort -u | sed "/^$/d"
    ' complete-line "$script" "$@"
}

failures=0
# expect "WORD WORD ..." COMMAND-LINE...: bash offers exactly these words, in any order.
expect() {
    local wanted got
    wanted="$(tr ' ' '\n' <<< "$1" | sort -u | sed '/^$/d')"
    shift
    got="$(complete_line "$@" 2> "$work/stderr")"
    if [ "$got" != "$wanted" ] || [ -s "$work/stderr" ]; then
        echo "FAIL: sextantctl ${*:2}<TAB>: expected [$(echo $wanted)], got [$(echo $got)]$( [ -s "$work/stderr" ] && echo "; stderr: $(cat "$work/stderr")")" >&2
        failures=$((failures + 1))
    else
        echo "ok: sextantctl ${*:2}<TAB> → [$(echo $got)]"
    fi
}

# File paths: completed from the current directory, directories included.
mkdir -p "$work/files/walks" && touch "$work/files/walk.jsonl" "$work/files/walk.gpx" "$work/files/notes.txt"
cd "$work/files"
expect "walk.gpx walk.jsonl walks" sextantctl replay start wal
expect "walk.gpx walk.jsonl walks" sextantctl trace info w
expect "notes.txt" sextantctl trace convert walk.jsonl no
expect "walk.gpx walk.jsonl walks" sextantctl record start --runtime-dir /tmp w
expect "walk.gpx walk.jsonl walks" sextantctl run --scenario w
cd - > /dev/null

# The words the daemon accepts.
expect "allowOnce allowWhileUsing allowAlways allowAllTheTime allow" sextantctl prompts answer 3 allow
expect "allowOnce allowWhileUsing allowAlways dontAllow settings cancel whileUsing onlyThisTime allowAllTheTime keepWhileUsing changeToAlways allow deny" sextantctl prompts answer --app com.example.maps ""
expect "notDetermined restricted denied authorizedWhenInUse authorizedAlways" sextantctl permissions set com.example.maps ""
expect "full reduced" sextantctl permissions set com.example.maps denied --accuracy ""
expect "landscapeLeft landscapeRight" sextantctl rotate land
expect "portrait portraitUpsideDown landscapeLeft landscapeRight faceUp faceDown" sextantctl rotate ""
expect "max" sextantctl replay start --speed m
expect "max" sextantctl run --speed m
expect "set" sextantctl heading s
expect "release" sextantctl heading rel
expect "ask allowOnce allowWhileUsing allowAlways dontAllow" sextantctl prompts policy ""
# Issue 43.11: the GNSS presets (RULES N3) and off.
expect "open-sky urban forest indoor off" sextantctl gnss profile ""
expect "open-sky off" sextantctl gnss profile o

# No daemon: no app ids, no prompt ids, no message.
mkdir -m 0700 "$work/none"
expect "" sextantctl permissions revoke --runtime-dir "$work/none" ""
expect "" sextantctl prompts answer --runtime-dir "$work/none" ""

# A live daemon: one app with a stored decision, one connected and waiting on its prompt.
run="$work/run"
sextantd --runtime-dir "$run" --ephemeral --no-gpsd --no-iio --log-level warning 2> "$work/sextantd.log" &
daemon=$!
deadline=$((SECONDS + 30))
until sextantctl --runtime-dir "$run" status > /dev/null 2>&1; do
    kill -0 "$daemon" 2> /dev/null || { echo "sextantd exited:" >&2; cat "$work/sextantd.log" >&2; exit 1; }
    [ "$SECONDS" -lt "$deadline" ] || { echo "sextantd did not answer within 30 s" >&2; exit 1; }
    sleep 0.05  # polling for a socket that is not there yet: nothing to wait on
done
sextantctl --runtime-dir "$run" permissions grant com.example.stored > /dev/null
sextant-sample-app --runtime-dir "$run" --app com.example.asking > /dev/null 2>&1 &
app=$!
prompt="$(sextantctl --runtime-dir "$run" --json prompts wait --app com.example.asking --timeout 30 | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')"
[ -n "$prompt" ] || { echo "no prompt id from prompts wait" >&2; exit 1; }

expect "com.example.asking com.example.stored" sextantctl permissions revoke --runtime-dir "$run" ""
expect "com.example.stored" sextantctl permissions set --runtime-dir "$run" com.example.s
expect "com.example.asking com.example.stored" sextantctl apps foreground --runtime-dir="$run" com.
expect "com.example.asking" sextantctl prompts wait --runtime-dir "$run" --app com.example.a
expect "$prompt" sextantctl prompts answer --runtime-dir "$run" ""
# Issue 24.5: `permissions grant <TAB>` and `prompts answer <TAB>` as a user types them, the
# daemon found where every client finds it (SEXTANT_RUNTIME_DIR), no --runtime-dir given.
expect "com.example.asking com.example.stored" sextantctl permissions grant --runtime-dir "$run" ""
SEXTANT_RUNTIME_DIR="$run" expect "com.example.asking com.example.stored" sextantctl permissions grant ""
SEXTANT_RUNTIME_DIR="$run" expect "com.example.asking" sextantctl permissions grant com.example.a
SEXTANT_RUNTIME_DIR="$run" expect "$prompt" sextantctl prompts answer ""
expect "allowWhileUsing" sextantctl prompts answer --runtime-dir "$run" "$prompt" allowW

if [ "$failures" -ne 0 ]; then
    echo "test-completion: $failures case(s) failed" >&2
    exit 1
fi
echo "test-completion: every case passed"
