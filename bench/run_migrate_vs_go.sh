#!/usr/bin/env bash
# `zarf-state migrate` of a List of legacy package Secrets, side by side with
# Go's encoding/json on the same payloads, in one run on one machine.
#
# usage: bench/run_migrate_vs_go.sh [-r ROUNDS] [-n COUNT] [-s BYTES] [-c CPU] BUILD_DIR
#   BUILD_DIR  a configured CMake build directory (Release)
#   -r ROUNDS  rounds (default 5); medians are reported
#   -n COUNT   Secrets in the List (default 300)
#   -s BYTES   payload bytes per Secret (default 102400)
#   -c CPU     pin both sides to this CPU (Go then runs with GOMAXPROCS=1)
#
# Steps: build zarf-state, zs_migrate_corpus and the Go peer; write the List
# (three legacy shapes in turn: P10, P8, P5) and its payloads as JSON Lines;
# then each round runs `zarf-state migrate -f list.json` once (manifests and
# report to /dev/null; CPU time, wall time and peak RSS from
# bench/process_time.py, to the microsecond), the same
# with `-f -` reading the List from standard input redirected from the file
# and from a pipe (`cat list.json |`, cat unpinned), then the
# same job timed inside one process as the Go peer times itself
# (zs_migrate_bench: no process start-up, file in the page cache, at least
# 2 s of iterations), and the Go peer once (go/payloads_typed: json.Unmarshal
# into Zarf's DeployedPackage and json.Marshal of every payload;
# go/list_pipeline: the same job as migrate, List in, List out). Every rate
# is MiB of payload per second of CPU time (per core: both sides pinned,
# a loaded machine's waiting not counted); migrate's is also given by wall
# time.
set -euo pipefail

reps=5
count=300
size=102400
pin=()
usage() { sed -n '5,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while getopts "r:n:s:c:h" opt; do
  case "$opt" in
    r) reps="$OPTARG" ;;
    n) count="$OPTARG" ;;
    s) size="$OPTARG" ;;
    c) pin=(taskset -c "$OPTARG") ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -eq 1 ]] || usage
build_dir="$1"
bench_dir="$(cd "$(dirname "$0")" && pwd)"

cmake --build "$build_dir" --target zarf-state zs_migrate_corpus zs_migrate_bench bench_go_peer >/dev/null
work="$(mktemp -d)"
trap 'rm -rf -- "$work"' EXIT
payload_bytes=$("$build_dir/bench/zs_migrate_corpus" "$work" "$count" "$size")
list_bytes=$(stat -c %s "$work/list.json")
echo "corpus: $count Secrets, $payload_bytes payload bytes, List $list_bytes bytes"

rate() { awk -v b="$payload_bytes" -v s="$1" 'BEGIN { printf "%.1f", b / 1048576 / s }'; }
# The timer itself is pinned, so that the process it times is zarf-state
# from its first instruction (a pinning wrapper exec'd in its place would
# add its own start-up to zarf-state's CPU time).
timed=("${pin[@]}" "$bench_dir/process_time.py")
cpp=() cpp_wall=() inproc=() rss=() go_payloads=() go_list=() redirected=() piped=() piped_rss=()
for ((r = 1; r <= reps; r++)); do
  read -r wall cpu kib < <("${timed[@]}" "$build_dir/zarf-state" migrate --quiet \
                              -f "$work/list.json" --report /dev/null)
  cpp+=("$(rate "$cpu")")
  cpp_wall+=("$(rate "$wall")")
  rss+=("$kib")
  read -r wall cpu kib < <("${timed[@]}" "$build_dir/zarf-state" migrate --quiet \
                              -f - --report /dev/null <"$work/list.json")
  redirected+=("$(rate "$cpu")")
  read -r wall cpu kib < <(cat "$work/list.json" | "${timed[@]}" "$build_dir/zarf-state" \
                              migrate --quiet -f - --report /dev/null)
  piped+=("$(rate "$cpu")")
  piped_rss+=("$kib")
  inproc+=("$("${pin[@]}" "$build_dir/bench/zs_migrate_bench" --list="$work/list.json" \
               --payload-bytes="$payload_bytes" --benchmark_min_time=2 --benchmark_format=csv 2>/dev/null |
             awk -F, '/^"BM_MigrateList/ { printf "%.1f", $6 / 1048576 }')")
  go_out=$(GOMAXPROCS=1 "${pin[@]}" "$build_dir/bench/go_json" -lines "$work/payloads.jsonl" \
             -list "$work/list.json" -min-time 2s)
  # Go's rates by its CPU time, as zarf-state's whole-process ones.
  go_payloads+=("$(sed -n 's/.*"go\/payloads_typed".*"mib_per_cpu_s":\([0-9.]*\).*/\1/p' <<<"$go_out")")
  go_list+=("$(sed -n 's/.*"go\/list_pipeline".*"mib_per_cpu_s":\([0-9.]*\).*/\1/p' <<<"$go_out")")
  echo "round $r: migrate ${cpp[-1]} MiB/s of CPU time (${cpp_wall[-1]} of wall time, peak RSS ${rss[-1]} KiB), -f - ${redirected[-1]} < file, ${piped[-1]} piped (peak RSS ${piped_rss[-1]} KiB), in one process ${inproc[-1]}, go payloads ${go_payloads[-1]}, go list ${go_list[-1]}"
done

median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
m_cpp=$(median "${cpp[@]}")
m_wall=$(median "${cpp_wall[@]}")
m_in=$(median "${inproc[@]}")
m_rss=$(median "${rss[@]}")
m_gp=$(median "${go_payloads[@]}")
m_gl=$(median "${go_list[@]}")
m_red=$(median "${redirected[@]}")
m_pipe=$(median "${piped[@]}")
m_pipe_rss=$(median "${piped_rss[@]}")
echo
echo "median of $reps rounds (MiB of payload per second; a whole process by its CPU time):"
printf '  zarf-state migrate (List in, List out)    %8.1f   (%.1f by wall time) peak RSS %d KiB = %.2fx the List\n' \
  "$m_cpp" "$m_wall" "$m_rss" "$(awk -v r="$m_rss" -v l="$list_bytes" 'BEGIN { print r * 1024 / l }')"
printf '  the same, -f - < list.json                %8.1f   (%.2fx the rate of -f FILE)\n' \
  "$m_red" "$(awk -v a="$m_red" -v b="$m_cpp" 'BEGIN { print a / b }')"
printf '  the same, cat list.json | ... -f -        %8.1f   (%.2fx the rate; peak RSS %d KiB = %.2fx the List)\n' \
  "$m_pipe" "$(awk -v a="$m_pipe" -v b="$m_cpp" 'BEGIN { print a / b }')" "$m_pipe_rss" \
  "$(awk -v r="$m_pipe_rss" -v l="$list_bytes" 'BEGIN { print r * 1024 / l }')"
printf '  the same, timed in one process            %8.1f\n' "$m_in"
printf '  go encoding/json, payloads only           %8.1f   -> zarf-state is %.2fx (%.2fx in one process)\n' \
  "$m_gp" "$(awk -v a="$m_cpp" -v b="$m_gp" 'BEGIN { print a / b }')" \
  "$(awk -v a="$m_in" -v b="$m_gp" 'BEGIN { print a / b }')"
printf '  go encoding/json, List in, List out       %8.1f   -> zarf-state is %.2fx\n' \
  "$m_gl" "$(awk -v a="$m_cpp" -v b="$m_gl" 'BEGIN { print a / b }')"
