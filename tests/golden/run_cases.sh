#!/usr/bin/env bash
# Runs every command of zarf-state in every output format over the bundled
# samples (tests/data/samples), the legacy fixtures (tests/data/legacy), the
# input forms, the event logs and the cluster Lists, and writes one file per
# case into OUT: the command line, its standard output, its standard error
# and its exit code.
#
# Usage: run_cases.sh ZARF_STATE_BINARY TEST_DATA_DIR OUT_DIR
#
# Everything is deterministic: ages are computed as of a fixed --now; the
# cases that record events (which take the clock's time) show their times
# as <TIME>; outputs that hold credentials (migrated manifests, Secrets
# written by record) are kept as their SHA-256 only. Paths in the outputs
# are relative (the cases run in a scratch directory where `data` is the
# test data).
set -euo pipefail
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
data=$(cd "$2" && pwd)
out=$3
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
ln -s "$data" data
mkdir scratch
# The default cache directory shows in --help; every case that uses a cache
# names it with --db.
export HOME=/nonexistent/golden-home XDG_CACHE_HOME=/nonexistent/golden-cache LC_ALL=C TZ=UTC
unset ZARF_STATE_DB
now=2027-01-01T00:00:00Z
# Durations (ingest, verify) are left out too.
secs='s/[0-9][0-9]*\.[0-9][0-9]* s\b/<SECONDS> s/g; s/ in [0-9][0-9.]*[a-zµ][a-z0-9.µ]*$/ in <DURATION>/'
times='s/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\(\.[0-9]*\)\{0,1\}\(Z\|[+-][0-9][0-9]:[0-9][0-9]\)/<TIME>/g'

legacy_lists=(data/legacy/e*/all-secrets.list.json)
# Every Secret and payload file of the eras but the near-1 MiB ones, which
# get their own cases (they are slow to size and to migrate).
legacy_files=()
big_files=()
for f in data/legacy/e*/*.secret.json data/legacy/e*/*.payload.json; do
  case $f in
    *near-1mib*) big_files+=(-f "$f") ;;
    *) legacy_files+=(-f "$f") ;;
  esac
done
lists=()
for f in "${legacy_lists[@]}"; do lists+=(-f "$f"); done
inputs=()
for f in data/inputs/*.json data/inputs/*.jsonl data/inputs/*.yaml; do inputs+=(-f "$f"); done
s=data/samples
stderr_times=

# run NAME [FILTER] -- ARGS...: runs the binary (stdin: /dev/null) and writes
# OUT/NAME.txt. FILTER (a shell command) reads standard output and writes
# what is kept of it.
run() {
  local name=$1 filter=cat
  shift
  if [ "$1" != "--" ]; then filter=$1; shift; fi
  shift
  local rc=0
  "$bin" "$@" </dev/null >"$work/stdout" 2>"$work/stderr" || rc=$?
  {
    echo "\$ zarf-state $*" | sed 's|//[^/@ ]*:[^/@ ]*@|//USER:PASSWORD@|g'
    echo "--- stdout"
    eval "$filter" <"$work/stdout" | sed "$secs"
    echo "--- stderr"
    if [ -n "$stderr_times" ]; then no_times <"$work/stderr"; else cat "$work/stderr"; fi | sed "$secs"
    echo "--- exit $rc"
  } >"$out/$name.txt"
}
digest() { sha256sum | cut -d' ' -f1; }
# What record writes holds the clock's times, whose length varies (and with
# it every size): they become <TIME>, sizes <N> and ages since them <AGE>.
no_times() { sed "$times; s/[0-9][0-9]* bytes/<N> bytes/g; s/(\([0-9][0-9]*[smhd]\)\{1,\})/(<AGE>)/g"; }

# Help and version: the program's, every command's.
run help -- --help
run version-flag -- --version
run version-table -- version -o yaml --help
for c in inspect status size migrate record replay config prune ingest query verify report bench completion version help; do
  run "help-$c" -- "$c" --help
done
for c in "record deploy" "record remove" "record component" "record finish" "record abandon" \
         "config digest" "config diff" "prune plan" "bench growth" \
         "query history" "query status" "query image" "query component" "query source" "query config-changed"; do
  run "help-${c// /-}" -- $c --help
done
run unknown-command -- frobnicate
run did-you-mean -- inspekt
run completion-bash digest -- completion bash
run completion-zsh digest -- completion zsh
run completion-fish digest -- completion fish
run completion-bad -- completion tcsh

# Reading Secrets: every era, every format.
for fmt in table wide json yaml name; do
  run "inspect-legacy-$fmt" -- inspect "${lists[@]}" -o "$fmt" --now "$now"
  run "status-legacy-$fmt" -- status "${lists[@]}" -o "$fmt" --now "$now"
  run "size-legacy-$fmt" -- size "${lists[@]}" -o "$fmt" --now "$now"
done
for fmt in table json name; do
  run "inspect-files-$fmt" -- inspect "${legacy_files[@]}" -o "$fmt" --now "$now"
done
run inspect-legacy-no-headers -- inspect "${lists[@]}" --no-headers --now "$now"
run status-legacy-no-headers -- status "${lists[@]}" --no-headers --now "$now"
run size-legacy-no-headers -- size "${lists[@]}" --no-headers --now "$now"
run size-legacy-quiet -- size "${lists[@]}" -q --fail-above 50 --compact --now "$now"
run size-files -- size "${legacy_files[@]}" -o wide --now "$now"
run inspect-big-files -- inspect "${big_files[@]}" --now "$now"
run size-big-file -- size -f data/legacy/e22-v0.80.0-v0.84.0/pkg-edge-near-1mib.secret.json --now "$now"
run status-files -- status "${legacy_files[@]}" --now "$now"
run inspect-inputs -- inspect "${inputs[@]}" -o json --now "$now"
run status-inputs -- status "${inputs[@]}" --now "$now"
run inspect-cluster -- inspect -f data/cluster/zarf-namespace.list.json -f data/cluster/other-secrets.list.json --now "$now"
run inspect-samples -- inspect -f $s/multi-era.list.json -f $s/others-list.json -o wide --now "$now"
run status-samples -- status -f $s/multi-era.list.json -f $s/others-list.json -o yaml --now "$now"
run size-samples -- size -f $s/multi-era.list.json -f $s/others-list.json -o json --compact --now "$now"
run inspect-report-names -- inspect -f data/report/hostile-names.payload.json --now "$now"
run inspect-stdin-terminal -- inspect

# Migrate: the report in every format; the manifests by digest.
for to in v2 legacy v0.45.0 v0.26.0; do
  run "migrate-legacy-$to" digest -- migrate "${lists[@]}" --to "$to"
  run "migrate-samples-$to-yaml" digest -- migrate -f $s/multi-era.list.json --to "$to" -o yaml
done
for fmt in table json yaml; do
  run "migrate-dry-run-$fmt" -- migrate "${lists[@]}" --dry-run --report-format "$fmt"
done
run migrate-dry-run-no-headers -- migrate -f $s/multi-era.list.json --dry-run --no-headers
run migrate-compact digest -- migrate -f $s/multi-era.list.json --codec compact
run migrate-files digest -- migrate "${legacy_files[@]}"
run migrate-inputs digest -- migrate "${inputs[@]}"
run migrate-to-shapes -- migrate "${lists[@]}" --to P5 --dry-run
run migrate-bad-target -- migrate "${lists[@]}" --to v9

# Config digests and diffs.
for f in $s/deploy-config-1.json $s/deploy-config-2.yaml; do
  n=$(basename "$f")
  run "config-digest-$n" -- config digest -f "$f"
  run "config-digest-canonical-$n" -- config digest -f "$f" --canonical
  run "config-digest-remove-$n" -- config digest -f "$f" --kind remove
done
for fmt in table wide json yaml; do
  run "config-diff-$fmt" -- config diff $s/deploy-config-1.json $s/deploy-config-2.yaml -o "$fmt" --package $s/podinfo-2.yaml
done
run config-diff-no-headers -- config diff $s/deploy-config-1.json $s/deploy-config-2.yaml --no-headers --exit-code
run config-diff-same -- config diff $s/deploy-config-1.json $s/deploy-config-1.json --exit-code

# Replay of the bundled logs.
lg=data/logs
for fmt in table wide json yaml; do
  run "replay-log-$fmt" -- replay --log $lg/podinfo-v0.log.jsonl -o "$fmt"
  run "replay-secret-$fmt" -- replay -f $lg/podinfo-v0.secret.json -o "$fmt"
done
run replay-log-verify -- replay --log $lg/podinfo-v0.log.jsonl -f $lg/podinfo-v0.secret.json --verify
run replay-log-dump digest -- replay --log $lg/podinfo-v0.log.jsonl --dump
run replay-log-upto -- replay --log $lg/podinfo-v0.log.jsonl --upto 2 --no-headers
run replay-log-at -- replay --log $lg/podinfo-v0.log.jsonl --at 2026-01-01T00:00:00Z
run replay-old-log -- replay --log $lg/demo-v1-before-definition-at.log --upto 40
for f in data/legacy/e22-v0.80.0-v0.84.0/pkg-*.secret.json; do
  run "replay-$(basename "$f" .secret.json)" -- replay -f "$f" -o wide
done

# Record: a deploy, an upgrade, a failed upgrade, a remove, and the steps;
# then what the other commands say of the Secret and the log.
stderr_times=1
sec=scratch/zarf-package-podinfo.json
log=scratch/podinfo.log.jsonl
run record-deploy-1 -- record deploy -f $sec --log $log --package $s/podinfo-1.yaml --digest sha256:1111 \
  --source "oci://robot:token@registry.example.com/podinfo:6.4.0" --config $s/deploy-config-1.json
run record-deploy-2 -- record deploy -f $sec --log $log --package $s/podinfo-2.yaml --digest sha256:2222 \
  --source oci://registry.example.com/podinfo:6.5.0 --config $s/deploy-config-2.yaml -v
run record-deploy-fail -- record deploy -f $sec --log $log --package $s/podinfo-2.yaml --digest sha256:2222 \
  --source oci://registry.example.com/podinfo:6.5.0 --config $s/deploy-config-2.yaml --fail dashboards
run record-remove -- record remove -f $sec --log $log --components dashboards
run record-begin -- record deploy -f $sec --log $log --package $s/podinfo-2.yaml --begin-only
run record-component -- record component -f $sec --log $log --name podinfo --outcome InProgress
run record-component-ok -- record component -f $sec --log $log --name podinfo --outcome Succeeded
run record-finish -- record finish -f $sec --log $log --outcome Succeeded --config $s/deploy-config-2.yaml
run record-begin-2 -- record deploy -f $sec --log $log --package $s/podinfo-3.yaml --begin-only
run record-abandon -- record abandon -f $sec --log $log --outcome Failed
run record-stdout "\"\$bin\" status -f - -o json --now $now 2>&1 | no_times" -- record deploy -f $sec --package $s/podinfo-3.yaml --stdout --codec json
run record-inspect-name -- inspect -f $sec -o name
for fmt in json yaml; do
  run "record-status-$fmt" no_times -- status -f $sec -o "$fmt" --now "$now"
  run "record-replay-$fmt" no_times -- replay --log $log -f $sec -o "$fmt"
done
run record-replay-verify no_times -- replay --log $log -f $sec --verify
run record-dump "no_times | digest" -- replay --log $log --dump
run record-config-digest -- config digest -f $sec
run record-dos-games -- record deploy -f scratch/dos.json --package $s/dos-games.yaml --codec compact
run record-dos-games-status no_times -- status -f scratch/dos.json -o json --now "$now"
run record-bad-package -- record deploy -f scratch/bad.json --package $s/deploy-config-1.json

stderr_times=

# Prune plans (on Secrets recorded here, whose times do not show in a plan).
pr=scratch/zarf-package-podinfo-prune.json
"$bin" record deploy -f $pr --package $s/podinfo-2.yaml --digest sha256:2222 >/dev/null 2>&1
for fmt in table wide json yaml; do
  run "prune-plan-$fmt" -- prune plan --deployed $pr --new $s/podinfo-3.yaml --others $s/others-list.json -o "$fmt"
done
run prune-plan-remove -- prune plan --deployed $pr --remove --no-others --registry 127.0.0.1:31999
run prune-plan-unreadable -- prune plan --deployed $pr --new $s/podinfo-3.yaml --others $s/others-list.json \
  --unreadable "namespace team-b" --no-headers
run prune-plan-canary -- prune plan --deployed $pr --new $s/podinfo-canary.yaml --no-others

# The cache: ingest, query, verify.
db=scratch/cache
run ingest-samples -- ingest --db $db -f $s/multi-era.list.json -f $s/others-list.json
run ingest-legacy-json -- ingest --db $db "${lists[@]}" -o json
run ingest-legacy-yaml -- ingest --db $db "${lists[@]}" -o yaml --bulk
run ingest-logs -- ingest --db $db -f $lg/podinfo-v0.secret.json -q
for fmt in table wide json yaml name; do
  run "query-status-$fmt" -- query --db $db status -o "$fmt" --now "$now"
  run "query-history-$fmt" -- query --db $db history podinfo -o "$fmt" --now "$now"
  run "query-image-$fmt" -- query --db $db image nginx --repository -o "$fmt" --now "$now"
  run "query-component-$fmt" -- query --db $db component podinfo -o "$fmt" --now "$now"
  run "query-source-$fmt" -- query --db $db source oci://registry.example.com/podinfo:6.5.0 -o "$fmt" --now "$now"
done
run query-history-filters -- query --db $db history podinfo --outcome Failed --since 2020-01-01T00:00:00Z --no-components --now "$now"
for fmt in table json yaml; do
  run "query-config-changed-$fmt" -- query --db $db config-changed podinfo -f $s/deploy-config-2.yaml -o "$fmt"
done
for fmt in table wide json yaml; do
  run "verify-$fmt" -- verify --db $db -o "$fmt"
done
run replay-db -- replay --db $db podinfo -o json
run query-no-cache -- query --db scratch/none status

# The report page.
"$bin" migrate -f $s/multi-era.list.json --dry-run --report-format json >scratch/migration.json 2>/dev/null || true
"$bin" prune plan --deployed $pr --new $s/podinfo-3.yaml --others $s/others-list.json -o json >scratch/plan.json 2>/dev/null || true
"$bin" bench growth --out scratch/growth --max-images 2000 --cycles 4 -q >/dev/null 2>&1 || true
run report-legacy -- report "${lists[@]}" --now "$now" --out scratch/report-legacy.html
run report-legacy-html -- report "${lists[@]}" --now "$now" --out -
run report-all -- report -f $s/multi-era.list.json -f $lg/podinfo-v0.secret.json --db $db \
  --migrate-report scratch/migration.json --prune-plan scratch/plan.json --now "$now" --out -
run report-hostile -- report -f data/report/hostile-names.payload.json --now "$now" --out -
digest <scratch/report-legacy.html >"$out/report-legacy-written.sha256"

# Bench growth: a small search, every format.
for fmt in table wide json yaml; do
  run "bench-growth-$fmt" -- bench growth --out scratch/bg --max-images 3000 --cycles 5 -o "$fmt"
done
for f in growth-cycles.csv growth-size.csv growth-fit.csv growth-cycles.svg growth-size.svg; do
  if [ -f scratch/bg/$f ]; then cp scratch/bg/$f "$out/bench-growth-file-$f"; fi
done
