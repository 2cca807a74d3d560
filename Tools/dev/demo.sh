#!/usr/bin/env bash
# One command on a fresh Debian machine: install what is needed, build, run the demo.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash Tools/ci/setup.sh
swift build
.build/debug/sextantctl demo "$@"
