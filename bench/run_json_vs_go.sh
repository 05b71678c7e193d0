#!/usr/bin/env bash
# Compares the C++ JSON codec with Go's encoding/json on the same ~1 MiB
# DeployedPackage, in one run on one machine.
#
# usage: bench/run_json_vs_go.sh [-r ROUNDS] [-t DURATION] [-k DIR] [-c CPU] [-b BUILD2] BUILD_DIR
#   BUILD_DIR     a configured CMake build directory (Release; the default)
#   -r ROUNDS     rounds of measurement (default 5); medians are reported
#   -t DURATION   minimum duration of each Go measurement (default 2s)
#   -k DIR        keep the sample and the raw results in DIR
#   -c CPU        pin both sides to this CPU with taskset (Go then runs with
#                 GOMAXPROCS=1, like the single-threaded C++ side)
#   -b BUILD2     a second build (e.g. -DZS_NATIVE=ON) whose C++ benchmarks
#                 run in the same rounds; its results are printed after
#                 BUILD_DIR's, each compared with the same Go runs
#
# Steps: build zs_json_bench and the Go peer (target bench_go_peer), write the
# synthetic sample with `zs_json_bench --write-sample=FILE`, then run ROUNDS
# rounds, each one pass of the C++ benchmarks on the sample (Google Benchmark
# JSON) followed by one run of the Go peer on the same file, and print the
# median over rounds of each rate. Interleaving the sides matters on shared
# machines, whose speed can drift by tens of percent within minutes, and so
# does pinning (-c) where the CPUs of a VM differ in speed. Every
# rate is per input document (MiB of input per second), so a decode followed
# by an encode runs at bytes / (t_decode + t_encode), i.e. 1 / (1/d + 1/e).
# Needs bash, cmake, awk, sed, sort (and taskset for -c); no Python.
set -euo pipefail

reps=5
go_min_time=2s
keep_dir=""
pin=()
build2=""
usage() {
  sed -n '5,14p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while getopts "r:t:k:c:b:h" opt; do
  case "$opt" in
    r) reps="$OPTARG" ;;
    t) go_min_time="$OPTARG" ;;
    k) keep_dir="$OPTARG" ;;
    c) pin=(taskset -c "$OPTARG") ;;
    b) build2="$OPTARG" ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -eq 1 ]] || usage
build_dir="$1"
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "-r needs a positive integer" >&2; exit 2; }

cmake --build "$build_dir" --target zs_json_bench bench_go_peer
cpp_bin="$build_dir/bench/zs_json_bench"
go_bin="$build_dir/bench/go_json"
[[ -x "$cpp_bin" ]] || { echo "missing $cpp_bin" >&2; exit 1; }
[[ -x "$go_bin" ]] || { echo "missing $go_bin (is go installed?)" >&2; exit 1; }
cpp2_bin=""
if [[ -n "$build2" ]]; then
  cmake --build "$build2" --target zs_json_bench
  cpp2_bin="$build2/bench/zs_json_bench"
fi

if [[ -n "$keep_dir" ]]; then
  mkdir -p "$keep_dir"
  work="$keep_dir"
else
  work="$(mktemp -d)"
  trap 'rm -rf -- "$work"' EXIT
fi
sample="$work/sample.json"
"$cpp_bin" --write-sample="$sample"
sample_bytes=$(wc -c <"$sample" | tr -d ' ')

# The two sides run interleaved, one C++ pass then one Go pass per round, so
# that a change in the machine's load (common on shared VMs) hits both alike.
echo "Sample: $sample_bytes bytes. $reps rounds of: C++ benchmarks, then Go (min-time $go_min_time)..." >&2
for ((r = 1; r <= reps; r++)); do
  echo "  round $r/$reps" >&2
  "${pin[@]}" "$cpp_bin" --benchmark_filter='/sample$' --benchmark_format=json \
    >"$work/cpp.$r.json" 2>"$work/cpp.stderr" || {
    cat "$work/cpp.stderr" >&2
    exit 1
  }
  "${pin[@]}" "$go_bin" -f "$sample" -min-time "$go_min_time" >"$work/go.$r.jsonl"
  if [[ -n "$cpp2_bin" ]]; then
    "${pin[@]}" "$cpp2_bin" --benchmark_filter='/sample$' --benchmark_format=json \
      >"$work/cpp2.$r.json" 2>>"$work/cpp.stderr" || { cat "$work/cpp.stderr" >&2; exit 1; }
  fi
done
cat "$work/cpp.stderr" >&2

# MiB/s of C++ benchmark NAME in one Google Benchmark JSON file.
cpp_mib() {
  awk -v want="$1" '
    /"name":/ { n = $0; sub(/.*"name": *"/, "", n); sub(/".*/, "", n) }
    /"bytes_per_second":/ && n == want {
      v = $0; sub(/.*: */, "", v); sub(/,.*/, "", v); print v / 1048576
    }' "$2"
}

# The mib_per_s of measurement NAME in one Go output file.
go_mib() {
  grep -F "\"name\":\"$1\"" "$2" | sed 's/.*"mib_per_s":\([0-9.eE+-]*\).*/\1/'
}

# Median of the numbers on stdin, or n/a if there are none.
median() {
  sort -g | awk 'NF { a[++n] = $1 }
    END {
      if (n == 0) { print "n/a"; exit }
      if (n % 2) printf "%.1f\n", a[(n + 1) / 2]
      else printf "%.1f\n", (a[n / 2] + a[n / 2 + 1]) / 2
    }'
}

# 1 / (1/a + 1/b): the rate of two steps done one after the other.
chain() {
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (a == "" || b == "" || a == "n/a" || b == "n/a") print "n/a"
    else printf "%.3f\n", 1 / (1 / a + 1 / b) }'
}
# a / b, or n/a.
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (a == "" || b == "" || a == "n/a" || b == "n/a" || b + 0 == 0) print "n/a"
    else printf "%.2f\n", a / b }'
}

# report PREFIX TITLE: one line per round with every per-round value of the
# C++ results $work/PREFIX.*.json and the Go ones, then medians per column.
report() {
  for ((r = 1; r <= reps; r++)); do
    c="$work/$1.$r.json" g="$work/go.$r.jsonl"
    parse=$(cpp_mib BM_ParseJson/sample "$c")
    write=$(cpp_mib BM_WriteJsonRaw/sample "$c")
    write_go=$(cpp_mib BM_WriteJsonGoAny/sample "$c")
    rt=$(cpp_mib BM_ParseWriteRoundTrip/sample "$c")
    rt_go=$(chain "$parse" "$write_go")
    dec_any=$(go_mib go/decode_any "$g")
    enc_any=$(go_mib go/encode_any "$g")
    rt_any=$(chain "$dec_any" "$enc_any")
    dec_typed=$(go_mib go/decode_typed "$g")
    enc_typed=$(go_mib go/encode_typed "$g")
    rt_typed=$(chain "$dec_typed" "$enc_typed")
    echo "${parse:-n/a} ${write:-n/a} ${write_go:-n/a} ${rt:-n/a} $rt_go" \
      "${dec_any:-n/a} ${enc_any:-n/a} $rt_any" \
      "${dec_typed:-n/a} ${enc_typed:-n/a} $rt_typed" \
      "$(ratio "$rt" "$rt_any") $(ratio "$rt" "$rt_typed")"
  done >"$work/rounds.txt"
  col() { awk -v k="$1" '$k != "n/a" { print $k }' "$work/rounds.txt" | median; }

  row() { printf '  %-46s %10s\n' "$1" "$2"; }
  echo
  echo "$2. Sample: $sample_bytes bytes; median of $reps rounds; MiB/s of input document"
  [[ ${#pin[@]} -eq 0 ]] || echo "Both sides pinned: ${pin[*]}"
  row "C++ parse (ParseJson)" "$(col 1)"
  row "C++ write, stored order, raw numbers" "$(col 2)"
  row "C++ write, kGoAny (sorted keys, float64)" "$(col 3)"
  row "C++ parse+write raw (measured)" "$(col 4)"
  row "C++ parse + write kGoAny (computed)" "$(col 5)"
  row "Go decode (any)" "$(col 6)"
  row "Go encode (any)" "$(col 7)"
  row "Go decode+encode (any)" "$(col 8)"
  row "Go decode (typed DeployedPackage)" "$(col 9)"
  row "Go encode (typed DeployedPackage)" "$(col 10)"
  row "Go decode+encode (typed)" "$(col 11)"
  echo
  speedup_any=$(ratio "$(col 4)" "$(col 8)")
  speedup_typed=$(ratio "$(col 4)" "$(col 11)")
  row "Speedup C++ parse+write vs Go (any)" "${speedup_any}x"
  row "Speedup C++ parse+write vs Go (typed)" "${speedup_typed}x"
  row "Speedup C++ parse+write kGoAny vs Go (any)" "$(ratio "$(col 5)" "$(col 8)")x"
  row "  per-round speedups vs any, median" "$(col 12)x"
  row "  per-round speedups vs typed, median" "$(col 13)x"
  verdict=$(awk -v a="$speedup_any" -v t="$speedup_typed" 'BEGIN {
    if (a == "n/a" || t == "n/a") print "unknown"
    else if (a >= 5 && t >= 5) print "met"
    else print "NOT met" }')
  echo "  Target (>= 5x vs Go decode+encode, any and typed): $verdict"
  if grep -q "built without optimisation" "$work/cpp.stderr"; then
    echo "  (the C++ benchmark was built without optimisation)"
  fi
}

report cpp "$build_dir"
[[ -z "$cpp2_bin" ]] || report cpp2 "$build2"
