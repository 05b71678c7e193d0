#!/usr/bin/env bash
# `make demo`: zarf-state on the bundled sample Secrets of every Zarf era.
set -euo pipefail
build=${1:-build}
bin="$build/zarf-state"
data="$(dirname "$0")/../tests/data/legacy"

echo "== zarf-state $("$bin" --version | awk '{print $2}'): inspect the newest era's List (v0.80.0..v0.84.0)"
"$bin" inspect -f "$data/e22-v0.80.0-v0.84.0/all-secrets.list.json"
echo
echo "== every era, one line per object (inspect -o json)"
for list in "$data"/e*/all-secrets.list.json; do
  era=$(basename "$(dirname "$list")")
  "$bin" inspect -o json -f "$list" |
    awk -v era="$era" '
      /"kind": "package"/ {kind="package"; named=0} /"kind": "init-state"/ {kind="init-state"; named=0}
      /"name": / && kind=="package" && !named {gsub(/[",]/,"",$2); name=$2; named=1}
      /"secretBytes": / {gsub(/,/,"",$2); bytes=$2;
        printf "  %-22s %-10s %-28s %8s bytes\n", era, kind, (kind=="package"?name:"zarf-state"), bytes; named=1}'
done
echo
echo "== a malformed Secret: one error line, exit code 1"
"$bin" inspect -f "$data/e22-v0.80.0-v0.84.0/malformed-bad-base64.secret.json" || echo "(exit code $?)"
