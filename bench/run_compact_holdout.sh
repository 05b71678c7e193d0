#!/usr/bin/env bash
# Compact size measured out of sample: N package definitions from
# bench/holdout_packages.py (a generator, vocabulary and seed no zarf-state
# dictionary was trained on) are each recorded as a deployed package Secret
# (one successful deploy), then `size -o json` gives the JSON, gzip+base64
# and compact bytes of each; the script prints the medians of the
# per-package ratios compact/JSON, compact/(gzip -9 of the JSON) and
# compact/(gzip+base64, as Helm stores a release).
# Usage: bench/run_compact_holdout.sh [BUILD_DIR] [N] [SEED]
set -euo pipefail
BUILD=${1:-build}
N=${2:-75}
SEED=${3:-20240917}
BIN="$BUILD/zarf-state"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
python3 "$(dirname "$0")/holdout_packages.py" "$OUT/defs" "$N" "$SEED"
mkdir "$OUT/secrets"
for def in "$OUT"/defs/*.json; do
  "$BIN" record deploy -f "$OUT/secrets/$(basename "$def")" --package "$def" \
    --digest "sha256:$(sha256sum "$def" | cut -c1-64)" --source "oci://example.test/pkg" \
    --codec json 2>/dev/null
done
"$BIN" size -o json -f "$OUT"/secrets/*.json > "$OUT/size.json"
python3 - "$OUT/size.json" "$OUT"/secrets/*.json <<'PY'
import base64, gzip, json, statistics, sys
rows = json.load(open(sys.argv[1]))
gz = {}
for path in sys.argv[2:]:
    payload = base64.b64decode(json.load(open(path))["data"]["data"])
    gz[path] = len(gzip.compress(payload, 9))
cj = [r["compact"]["bytes"] / r["json"]["bytes"] for r in rows]
cg = [r["compact"]["bytes"] / r["gzipBase64"]["bytes"] for r in rows]
cz = [r["compact"]["bytes"] / gz[r["source"].split(" (secret ")[0]] for r in rows]
js = [r["json"]["bytes"] for r in rows]
print(f"packages {len(rows)}; JSON bytes median {statistics.median(js):.0f} "
      f"(min {min(js)}, max {max(js)})")
print(f"compact/JSON median {statistics.median(cj):.3f} (min {min(cj):.3f}, max {max(cj):.3f})")
print(f"compact/gzip -9 of the JSON median {statistics.median(cz):.3f} (min {min(cz):.3f}, max {max(cz):.3f})")
print(f"compact/gzip+base64 median {statistics.median(cg):.3f} (min {min(cg):.3f}, max {max(cg):.3f})")
PY
