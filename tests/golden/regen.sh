#!/usr/bin/env bash
# Rewrites the golden outputs (tests/data/golden/) from a build's binary:
#   tests/golden/regen.sh [BUILD_DIR]        (default: build)
# Review the diff (git diff tests/data/golden) before committing it: every
# changed file is a change of what a user sees.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
rm -rf "$root/tests/data/golden"
"$root/tests/golden/run_cases.sh" "$build/zarf-state" "$root/tests/data" "$root/tests/data/golden"
echo "wrote $(ls "$root/tests/data/golden" | wc -l) files into tests/data/golden"
