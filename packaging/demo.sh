#!/usr/bin/env bash
# `make demo`: zarf-state on the bundled sample Secrets of every Zarf era.
set -euo pipefail
build=${1:-build}
bin="$build/zarf-state"
root="$(cd "$(dirname "$0")/.." && pwd)"
data="$root/tests/data/legacy"

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


samples="$root/tests/data/samples"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out_dir="$(cd "$build" && pwd)/demo"
mkdir -p "$out_dir"
run() { echo "\$ zarf-state $*"; "$bin" "$@" || echo "(exit code $?)"; }

echo
echo "== migrate a List of Secrets written by eight Zarf eras (v0.16 .. v0.84) to v2"
echo "   (manifests to a file, the per-object report on stderr)"
run migrate -f "$samples/multi-era.list.json" --out "$out_dir/multi-era.v2.json"
echo
echo "== and back: each object to the shapes Zarf v0.45.0 wrote (summary line of the dry run)"
echo "\$ zarf-state migrate -f $out_dir/multi-era.v2.json --to v0.45.0 --dry-run | tail -1"
"$bin" migrate -f "$out_dir/multi-era.v2.json" --to v0.45.0 --dry-run | tail -1

echo
echo "== the local cache: ingest the migrated List, the status of every package, verify"
run ingest --db "$work/cache" -f "$out_dir/multi-era.v2.json"
run query --db "$work/cache" status
run verify --db "$work/cache"

echo
echo "== record a deploy, an upgrade, a failed upgrade and a remove of a sample package"
secret="$work/zarf-package-podinfo.json"
log="$work/podinfo.log.jsonl"
run record deploy -f "$secret" --log "$log" --package "$samples/podinfo-1.yaml" \
  --digest sha256:1111 --source "oci://robot:token@registry.example.com/podinfo:6.4.0" \
  --config "$samples/deploy-config-1.json"
run record deploy -f "$secret" --log "$log" --package "$samples/podinfo-2.yaml" \
  --digest sha256:2222 --source oci://registry.example.com/podinfo:6.5.0 \
  --config "$samples/deploy-config-2.yaml"
run record deploy -f "$secret" --log "$log" --package "$samples/podinfo-2.yaml" \
  --digest sha256:2222 --source oci://registry.example.com/podinfo:6.5.0 \
  --config "$samples/deploy-config-2.yaml" --fail dashboards
run record remove -f "$secret" --log "$log" --components dashboards
echo
run status -f "$secret"
echo
run replay --log "$log" -f "$secret" --verify
echo
run config diff "$samples/deploy-config-1.json" "$samples/deploy-config-2.yaml"

echo
echo "== prune plan: upgrade podinfo 6.5.0 (podinfo-2.yaml) to 6.6.0 (podinfo-3.yaml) with --prune"
pruned="$work/zarf-package-podinfo-prune.json"
"$bin" record deploy -f "$pruned" --package "$samples/podinfo-2.yaml" --digest sha256:2222 >/dev/null
run prune plan --deployed "$pruned" --new "$samples/podinfo-3.yaml" --others "$samples/others-list.json"
echo
run prune plan --deployed "$pruned" --remove --no-others --registry 127.0.0.1:31999
echo
run prune plan --deployed "$pruned" --new "$samples/podinfo-3.yaml" --others "$samples/others-list.json" \
  --unreadable "namespace team-b"

echo
echo "== Secret size growth per codec (writes CSV and SVG plots)"
run bench growth --out "$out_dir" --max-images 200000
echo
echo "== size of the bundled sample Secrets of every era, per codec"
echo "   (the compact dictionary was built from these very fixtures, so COMPACT is"
echo "   in-sample here; on packages no dictionary saw, compact/JSON is 0.209, the median"
echo "   over 75 held-out packages: docs/performance.md, bench/run_compact_holdout.sh)"
echo "\$ zarf-state size -f tests/data/legacy/e*/pkg-*.secret.json"
"$bin" size -f "$data"/e*/pkg-*.secret.json
echo
echo "plots: $out_dir/growth-cycles.svg $out_dir/growth-size.svg"

echo
echo "== one HTML page of it all: sizes, events, components, the migration, the prune plan,"
echo "   the growth curves (self-contained: open it in any browser, offline)"
"$bin" migrate -f "$samples/multi-era.list.json" --dry-run --report-format json >"$work/migration.json"
"$bin" prune plan --deployed "$pruned" --new "$samples/podinfo-3.yaml" \
  --others "$samples/others-list.json" -o json >"$work/plan.json"
# No --db: the sample List holds Secrets of one name from several eras, which
# one cache snapshot per package would report as drift.
run report -f "$secret" -f "$out_dir/multi-era.v2.json" \
  --migrate-report "$work/migration.json" --prune-plan "$work/plan.json" --growth "$out_dir" \
  --out "$out_dir/report.html"
echo
echo "report: $out_dir/report.html"
