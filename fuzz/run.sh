#!/usr/bin/env bash
# Runs the libFuzzer targets of a ZS_FUZZ=ON build, each for SECONDS, and
# fails if any of them found something:
#   fuzz/run.sh BUILD_DIR SECONDS [TARGET...]     (default: every target)
# Seeds are generated from tests/data into BUILD_DIR/fuzz-run/seeds/<target>;
# what the fuzzer learns accumulates in BUILD_DIR/fuzz-run/corpus/<target>
# across runs; a finding lands in BUILD_DIR/fuzz-run/findings/<target>/ and is
# to be fixed and then copied to tests/data/fuzz-regressions/<target>/, which
# the normal test suite replays. The fuzzers run at nice 10: they are
# background work on a shared machine. FUZZ_JOBS=N runs N targets at once.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: fuzz/run.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: fuzz/run.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json_reader secret_reader compact_decode config_digest package_decode zarf_package log_reader)
jobs=${FUZZ_JOBS:-1}
work=$build/fuzz-run
rm -rf "$work/seeds"
python3 fuzz/make_corpus.py tests/data "$work/seeds" "$build/fuzz_seed_compact" || exit 1

run_one() {
  local t=$1
  mkdir -p "$work/corpus/$t" "$work/findings/$t" "$work/seeds/$t"
  echo "fuzz_$t: ${seconds}s"
  nice -n 10 "$build/fuzz_$t" -max_total_time="$seconds" -max_len=65536 -timeout=25 \
    -rss_limit_mb=2560 -dict=fuzz/zarf_state.dict -print_final_stats=1 \
    -artifact_prefix="$work/findings/$t/" "$work/corpus/$t" "$work/seeds/$t" \
    >"$work/$t.log" 2>&1
  local rc=$?
  grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|cov: .*corp" "$work/$t.log" |
    tail -3 | sed "s/^/  fuzz_$t: /"
  if [ $rc -ne 0 ]; then
    echo "fuzz_$t: FINDING (exit $rc), see $work/$t.log and $work/findings/$t/" >&2
    grep -m3 -E "ERROR|property violated|SUMMARY" "$work/$t.log" >&2
    return 1
  fi
}

failed=0
running=0
for t in "${targets[@]}"; do
  run_one "$t" &
  running=$((running + 1))
  if [ $running -ge "$jobs" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
done
while [ $running -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
exit $failed
