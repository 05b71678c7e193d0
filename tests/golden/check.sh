#!/usr/bin/env bash
# The golden-output test: runs every case of run_cases.sh with BINARY and
# compares each output with tests/data/golden/ byte for byte. Fails listing
# the cases that differ (with the start of each diff) and the cases missing
# on either side. Regenerate with tests/golden/regen.sh after a deliberate
# change.
# Usage: check.sh BINARY TEST_DATA_DIR
set -euo pipefail
bin=$1
data=$(cd "$2" && pwd)
actual=$(mktemp -d)
trap 'rm -rf "$actual"' EXIT
"$(dirname "$0")/run_cases.sh" "$bin" "$data" "$actual"
if diff -rq "$data/golden" "$actual" >"$actual.list" 2>&1; then
  echo "$(ls "$actual" | wc -l) outputs match tests/data/golden"
  rm -f "$actual.list"
  exit 0
fi
echo "outputs differ from tests/data/golden (tests/golden/regen.sh rewrites them):"
cat "$actual.list"
for f in "$data/golden"/*; do
  n=$(basename "$f")
  [ -f "$actual/$n" ] || continue
  cmp -s "$f" "$actual/$n" || diff -u "$f" "$actual/$n" | head -20
done
rm -f "$actual.list"
exit 1
