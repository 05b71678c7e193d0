#!/usr/bin/env bash
# Long histories: time `replay`, `replay --verify`, `size` and `status` of
# one package payload holding N events, for each N in $SIZES, and print the
# seconds per command (and per 1k events, which stays flat when the command
# is linear in the history). The payload is generated here (python3): a bare
# DeployedPackage with two components and N alternating Deploy
# InProgress/Succeeded events one minute apart (type, outcome, time; the
# Succeeded ones with a config digest), as `--max-events 0` keeps them, so
# that 1M events stay under the payload parser's 256 MiB. Timeline output
# goes to /dev/null.
# Usage: bench/run_long_history.sh [BUILD_DIR]   (default: build)
set -euo pipefail
BUILD=${1:-build}
BIN="$BUILD/zarf-state"
SIZES=${SIZES:-"10000 100000 1000000"}
COMMANDS=${COMMANDS:-"replay|replay --verify --max-events 0|status|size"}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

gen() {  # gen N FILE
  python3 - "$1" "$2" <<'PY'
import json, sys
n, path = int(sys.argv[1]), sys.argv[2]
base = 1700000000
def ts(s):
    import datetime
    return datetime.datetime.fromtimestamp(s, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
events = []
for i in range(n):
    e = {"type": "Deploy", "outcome": "InProgress" if i % 2 == 0 else "Succeeded",
         "timestamp": ts(base + 60 * i)}
    if i % 2 == 1:
        e["configDigest"] = "sha256:" + ("%064x" % (i // 2))
    events.append(e)
last = ts(base + 60 * (n - 1))
comp = lambda name: {"name": name, "installedCharts": [], "status": "Succeeded",
                     "observedGeneration": n // 2,
                     "lastEvent": {"type": "Deploy", "outcome": "Succeeded", "timestamp": last}}
pkg = {"name": "demo",
       "data": {"kind": "ZarfPackageConfig", "metadata": {"name": "demo", "version": "1.0.0"},
                "components": [{"name": "web"}, {"name": "db"}]},
       "cliVersion": "v0.84.0", "generation": n // 2,
       "configDigest": "sha256:" + ("%064x" % ((n - 1) // 2)),
       "deployedComponents": [comp("web"), comp("db")], "events": events}
with open(path, "w") as f:
    json.dump(pkg, f)
PY
}

printf '%-9s %-16s %9s %12s %5s\n' events command seconds s/1k-events exit
for n in $SIZES; do
  f="$OUT/p$n.json"
  gen "$n" "$f"
  IFS='|' read -r -a cmds <<< "$COMMANDS"
  for cmd in "${cmds[@]}"; do
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    rc=0
    timeout "${TIMEOUT:-600}" "$BIN" --max-object-size 2000000000 $cmd -f "$f" >/dev/null 2>"$OUT/err" || rc=$?
    end=$(date +%s.%N)
    s=$(echo "$end - $start" | bc -l)
    printf '%-9s %-16s %9.2f %12.4f %5s\n' "$n" "${cmd%% --max-events 0}" "$s" "$(echo "$s * 1000 / $n" | bc -l)" "$rc"
    # exit 1 from --verify is expected only for drift; anything else is shown
    if [ "$rc" -ne 0 ] && ! grep -q "field(s) differ\|no drift" "$OUT/err"; then head -3 "$OUT/err"; fi
  done
  rm -f "$f"
done
