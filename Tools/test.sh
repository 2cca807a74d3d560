#!/usr/bin/env bash
# Builds everything and runs every test: unit tests of the engines and parsers, and
# integration tests that start the real sextantd, gpsd and umockdev.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 Tools/check-code-shape.py Sources
swift build --build-tests "$@"
swift test --skip-build "$@"
