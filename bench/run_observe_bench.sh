#!/usr/bin/env bash
# What `zarf-state observe` costs (docs/performance.md, "Observing Zarf's
# writes"), pinned to one core:
#   1. a namespace of $PACKAGES packages after each of $WRITES writes
#      (bench/engine/observe_corpus.cc), observed as $WRITES dumps in one run
#      into an empty cache: CPU seconds (user + system) and peak RSS;
#   2. the same with $WATCH_PACKAGES packages: the peak RSS a watcher of that
#      many packages reaches.
# Usage: bench/run_observe_bench.sh [BUILD_DIR]   (default: build; needs
# ZS_BUILD_BENCH=ON for zs_observe_corpus)
set -euo pipefail
BUILD=${1:-build}
PACKAGES=${PACKAGES:-200}
WRITES=${WRITES:-10}
WATCH_PACKAGES=${WATCH_PACKAGES:-1000}
CPU=${CPU:-1}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

run() {  # run NAME PACKAGES
  mkdir -p "$OUT/$1"
  "$BUILD/bench/zs_observe_corpus" "$OUT/$1" "$2" "$WRITES"
  local files=()
  for f in "$OUT/$1"/dump-*.json; do files+=(-f "$f"); done
  /usr/bin/time -f "%U %S %M" -o "$OUT/$1.time" taskset -c "$CPU" \
    "$BUILD/zarf-state" observe --db "$OUT/$1/db" "${files[@]}" > "$OUT/$1.out" 2> "$OUT/$1.err"
  read -r user sys rss < "$OUT/$1.time"
  echo "| $2 packages x $WRITES writes | $(wc -l < "$OUT/$1.out") events | $(echo "$user + $sys" | bc -l) s CPU | $((rss / 1024)) MiB RSS |"
}

echo "| input | derived | CPU | peak RSS |"
echo "| --- | --- | --- | --- |"
run small "$PACKAGES"
run watch "$WATCH_PACKAGES"
