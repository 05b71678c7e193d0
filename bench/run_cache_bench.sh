#!/usr/bin/env bash
# The cache benchmarks, in one run, pinned to one core:
#   1. generate a cache of $PACKAGES packages x 10 events (bench step),
#   2. ingest throughput, point-query p50/p99, full-history scan
#      (bench/engine/cache_bench.cc),
#   3. the same image query answered by jq over the equivalent JSON dump
#      (one Secret per line, $JQ_SECRETS of them; the time is scaled
#      linearly to $PACKAGES, and the ratio is against the cache's p50).
# Usage: bench/run_cache_bench.sh [BUILD_DIR]   (default: build)
set -euo pipefail
BUILD=${1:-build}
PACKAGES=${PACKAGES:-100000}
JQ_SECRETS=${JQ_SECRETS:-10000}
CPU=${CPU:-1}
export ZS_CACHE_BENCH_DB=${ZS_CACHE_BENCH_DB:-/tmp/zs_cache_bench}
export ZS_CACHE_BENCH_PACKAGES=$PACKAGES
rm -rf "$ZS_CACHE_BENCH_DB"
OUT=$(mktemp -d)
taskset -c "$CPU" "$BUILD/bench/zs_cache_bench" --benchmark_format=console | tee "$OUT/bench.txt"
du -sh "$ZS_CACHE_BENCH_DB"

# The equivalent dump for jq: the same generator's Secrets, one per line.
taskset -c "$CPU" "$BUILD/bench/zs_cache_bench" --dump-secrets="$JQ_SECRETS" > "$OUT/dump.ndjson"
IMAGE=registry.example.com/team-7/service-7:v1.0.7   # package 0's 8th image, as listed
start=$(date +%s.%N)
taskset -c "$CPU" jq -r --arg img "$IMAGE" \
  'select(.data.data | @base64d | fromjson | [.data.components[].images[]?] | index($img)) | .metadata.name' \
  "$OUT/dump.ndjson" > "$OUT/jq.txt"
end=$(date +%s.%N)
jq_s=$(echo "$end - $start" | bc -l)
p50=$(grep BM_QueryImage "$OUT/bench.txt" | sed -E 's/.*p50_us=([0-9.]+).*/\1/')
echo
echo "| what | result |"
echo "| --- | --- |"
echo "| jq over $JQ_SECRETS Secrets ($(du -h "$OUT/dump.ndjson" | cut -f1)) | ${jq_s} s, $(wc -l < "$OUT/jq.txt") matches |"
echo "| jq scaled to $PACKAGES Secrets | $(echo "$jq_s * $PACKAGES / $JQ_SECRETS" | bc -l | cut -c1-8) s |"
echo "| cache image query p50 | ${p50} us |"
echo "| ratio (jq scaled / cache p50) | $(echo "$jq_s * $PACKAGES / $JQ_SECRETS / ($p50 / 1000000)" | bc -l | cut -d. -f1)x |"
rm -rf "$OUT"
