#!/usr/bin/env bash
# Runs zarf-state natively and under qemu-x86_64 with several CPU models on the
# legacy fixture corpus, and requires every output byte (stdout, stderr, exit
# code, files written) to match the native run. The default build targets
# baseline x86-64 and picks its SIMD kernels at run time
# (base/cpu_dispatch.h), so it must run, and agree, everywhere.
#
# usage: cpu_models_test.sh ZARF_STATE PRINT_SIMD_LEVEL DATA_DIR [MODEL=LEVEL...]
#   ZARF_STATE        the binary under test
#   PRINT_SIMD_LEVEL  prints the level the dispatcher detects (checked per model)
#   DATA_DIR          tests/data
#   MODEL=LEVEL       qemu CPU models and the level each must get; LEVEL may be
#                     a|b when either is right (default: the list below)
# Exit 77 (skipped) when qemu-x86_64 is not installed (Debian: qemu-user).
set -euo pipefail

[[ $# -ge 3 ]] || { sed -n '8,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
bin=$1 level_bin=$2 data=$3
shift 3
# qemu64: SSE2 only (simdjson's fallback kernel); Nehalem: SSE4.2, no AVX
# (simdjson westmere); Haswell: AVX2 without AVX-512; Skylake-Server asks for
# AVX-512, which qemu's TCG (7.2) cannot emulate: it drops those features
# (warning on stderr) and the guest sees AVX2. The AVX-512 kernels are
# therefore covered by the native run when this host has AVX-512BW.
models=("$@")
[[ ${#models[@]} -gt 0 ]] ||
  models=(qemu64=sse2 Nehalem=sse2 Haswell=avx2 Skylake-Server='avx2|avx512')

qemu=$(command -v qemu-x86_64 || true)
if [[ -z "$qemu" ]]; then
  echo "SKIP: qemu-x86_64 not found (Debian package qemu-user)"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT

# The corpus: every era's List of Secrets, and one near-1 MiB package Secret
# (long base64 and long strings: every kernel's wide loop runs).
lists=()
for f in "$data"/legacy/e*/all-secrets.list.json; do lists+=(-f "$f"); done
big=$(ls "$data"/legacy/e*/pkg-edge-near-1mib.secret.json | head -1)
inputs=("${lists[@]}" -f "$big")
round_trip=("$data"/legacy/e1[06]*/all-secrets.list.json "$data"/legacy/e22*/all-secrets.list.json)

# run OUT_DIR RUNNER...: every command into OUT_DIR, one file per stream.
run() {
  local out=$1
  shift
  mkdir -p "$out"
  step() {
    local name=$1
    shift
    set +e
    "$@" >"$out/$name.out" 2>"$out/$name.err"
    echo $? >"$out/$name.rc"
    set -e
  }
  step inspect "$@" "$bin" inspect "${inputs[@]}" -o json
  # As v2 JSON the near-1 MiB package is too large: it stays out of this one.
  step migrate-json "$@" "$bin" migrate "${lists[@]}" --codec json
  # The near-1 MiB package is read (inspect above), written compact, read
  # back and sized (big-* below); --dry-run and size of the Lists take the
  # same paths without compressing it at zstd's level 19 twice more.
  step migrate-dry "$@" "$bin" migrate "${lists[@]}" --codec auto --dry-run --report-format json
  step size "$@" "$bin" size "${lists[@]}" -o json
  # The compact round trip, one List at a time (one output file each): to
  # compact, read back, and to JSON again. The near-1 MiB package fits only
  # compact, so it goes there and is read back.
  local i=0 f
  for f in "${round_trip[@]}"; do
    i=$((i + 1))
    step "rt$i-to-compact" "$@" "$bin" migrate -f "$f" --codec compact --out "$out/rt$i.json"
    step "rt$i-inspect" "$@" "$bin" inspect -f "$out/rt$i.json" -o json
    step "rt$i-to-json" "$@" "$bin" migrate -f "$out/rt$i.json" --codec json
  done
  step big-to-compact "$@" "$bin" migrate -f "$big" --codec compact --out "$out/big.json"
  step big-inspect "$@" "$bin" inspect -f "$out/big.json" -o json
  step big-size "$@" "$bin" size -f "$out/big.json" -o json
  # Paths differ between runs; the files written must not.
  sed -i "s|$out|OUT|g" "$out"/*.out "$out"/*.err
}

native_level=$("$level_bin")
echo "native: dispatcher level $native_level"
grep -qw avx512bw /proc/cpuinfo ||
  echo "note: this host has no AVX-512BW: no run below covers the AVX-512 kernels"
run "$work/native"
for f in "$work"/native/*.rc; do
  [[ $(cat "$f") == 0 ]] || {
    echo "FAIL: native $(basename "$f" .rc) exited $(cat "$f")"
    cat "${f%.rc}.err"
    exit 1
  }
done

failed=0
# From AVX2 up, the dispatcher's level decides the kernels of simdjson
# (haswell, icelake) as it does ours, so a model that reaches such a level
# an earlier model already ran byte for byte is only probed. At SSE2 each
# model runs: simdjson tells SSE4.2 (westmere) from plain SSE2 (fallback).
ran_levels=" "
for spec in "${models[@]}"; do
  model=${spec%%=*} want=${spec#*=}
  start=$SECONDS
  got=$("$qemu" -cpu "$model" "$level_bin" 2>"$work/$model.qemu") || {
    echo "FAIL: $model: the level probe did not run ($(tail -1 "$work/$model.qemu"))"
    failed=1
    continue
  }
  if [[ "|$want|" != *"|$got|"* ]]; then
    echo "FAIL: $model: dispatcher level $got, want $want"
    failed=1
  fi
  if [[ "$got" != sse2 && "$ran_levels" == *" $got "* ]]; then
    echo "ok: $model (level $got): an earlier model ran level $got byte for byte"
    continue
  fi
  run "$work/$model" "$qemu" -cpu "$model"
  # qemu's own warnings (features TCG cannot emulate) lead every stderr.
  sed -i '/^qemu-x86_64: warning: /d' "$work/$model"/*.err
  if diff -r "$work/native" "$work/$model" >"$work/$model.diff"; then
    echo "ok: $model (level $got) matches the native run byte for byte ($((SECONDS - start)) s)"
    ran_levels+="$got "
  else
    echo "FAIL: $model (level $got) differs from the native run:"
    head -20 "$work/$model.diff"
    failed=1
  fi
done
exit $failed
