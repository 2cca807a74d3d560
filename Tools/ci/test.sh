#!/usr/bin/env bash
# Builds everything and runs every test: unit tests of the engines and parsers, integration
# tests that start the real sextantd, gpsd and umockdev, then the Python client's tests and
# the examples (examples/) against the sextantd just built.
#
# Python: Debian's /usr/bin/python3 (3.11 on bookworm, with python3-gi for umockdev and
# python3-pytest from Tools/ci/setup.sh), or SEXTANT_PYTHON. The package is installed into a
# virtual environment in .build/python-venv that sees the system's packages (pytest), from
# this checkout alone: no index, no download.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 Tools/ci/check-code-shape.py Sources
python3 Tools/ci/check-code-shape.py Tests
# The build must not warn about Sextant's own code (a fresh build compiles every file, so a
# warning anywhere fails CI; an incremental one checks the files it recompiled).
build_log=$(mktemp)
swift build --build-tests "$@" 2>&1 | tee "$build_log"
warnings=$(grep -E "^$PWD/(Sources|Tests)/[^ ]*: warning:" "$build_log" | sort -u || true)
rm -f "$build_log"
if [ -n "$warnings" ]; then
    echo "$warnings" >&2
    echo "test.sh: the build warns about the lines above: fix each where it is" >&2
    exit 1
fi
# The in-process tests that await (the hub's, the bridge's WebSocket client and inbox, the panel's,
# the store's writes) run on Swift's cooperative pool, as wide as the machine has cores, which
# the integration tests' blocking waits (child processes, sockets read with deadlines) can
# hold for minutes on 2 cores. Each set runs in a process of its own.
awaiting='SextantServerTests|SextantBrowserTests|SextantStoreTests|SextantPanelTests'
swift test --skip-build --filter "$awaiting" "$@"
swift test --skip-build --skip "$awaiting" "$@"

bin="$(swift build --show-bin-path "$@")"
# The man pages built from docs/ (pandoc, man --warnings), and sextantctl's bash completion.
bash Tools/ci/test-man.sh
# The docs against the code: command lines through the real parsers, methods, rule ids, tests,
# paths and Python names they name (issue 43.9).
python3 Tools/ci/check-docs.py "$bin"
bash Tools/ci/test-completion.sh "$bin"
python="${SEXTANT_PYTHON:-/usr/bin/python3}"
venv=.build/python-venv
"$python" -m venv --system-site-packages --clear "$venv"
"$venv/bin/pip" install --quiet --no-build-isolation --no-index ./clients/python

# pytest exits 5 when it collected nothing: here that means tests went missing, a failure.
run_pytest() {
    local status=0
    SEXTANT_BIN="$bin/sextantd" "$venv/bin/python" -m pytest -p no:cacheprovider "$@" || status=$?
    if [ "$status" -eq 5 ]; then
        echo "test.sh: pytest collected no tests in $*" >&2
        return 1
    fi
    return "$status"
}
run_pytest clients/python/tests
run_pytest examples
# The benchmarks' refusal of a stale program (Tools/bench/fresh_binary.py).
run_pytest Tools/bench/test_fresh_binary.py
# The README's headline as written: the same file's tests on the daemon sextantctl run made.
SEXTANT_BIN="$bin/sextantd" "$bin/sextantctl" run --trace Traces/demo-walk.jsonl --speed max --grant com.example.maps \
    -- "$venv/bin/python" -m pytest -p no:cacheprovider examples/test_under_run.py

# Every Tools/bench/bench-* with --smoke against this build: the benchmarks keep working.
bash Tools/bench/bench-smoke.sh "$bin"
