#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, generated from tests/data at `make fuzz`
time (nothing big is committed): make_corpus.py DATA_DIR OUT_DIR [SEED_COMPACT]

OUT_DIR/<target>/ receives the fixtures that target reads (files up to 64 KiB,
larger ones truncated to 64 KiB, which makes good truncation seeds too), the
inputs of the Go vectors, the bad-input corpus, and the target's regression
files. SEED_COMPACT is the fuzz_seed_compact binary that turns package
payloads into compact envelopes.
"""
import gzip
import json
import pathlib
import subprocess
import sys

MAX = 64 * 1024
# A hand-written definition in YAML, as `record deploy --package` reads one.
DEMO_YAML = (b"kind: ZarfPackageConfig\nmetadata:\n  name: demo\n  version: 1.0.0\n"
             b"components:\n  - name: web\n    required: true\n    charts:\n"
             b"      - name: podinfo\n        namespace: web\n  - name: jobs\n")


def put(out, name, data):
    out.mkdir(parents=True, exist_ok=True)
    (out / name).write_bytes(data[:MAX])


def main():
    data = pathlib.Path(sys.argv[1])
    out = pathlib.Path(sys.argv[2])
    seed_compact = sys.argv[3] if len(sys.argv) > 3 else None
    files = sorted(p for p in data.rglob("*") if p.is_file() and "fuzz-regressions" not in p.parts)
    text = [p for p in files if p.suffix in (".json", ".yaml", ".yml", ".jsonl")]
    payloads = [p for p in files if p.name.endswith(".payload.json")]
    for i, p in enumerate(text):
        raw = p.read_bytes()
        name = f"{i:04d}-{p.name}"
        if p.suffix != ".jsonl":
            put(out / "secret_reader", name, raw)
            if p.suffix == ".json":
                put(out / "json_reader", name, raw)
        if "config" in p.name:
            put(out / "config_digest", name, raw)
    for i, p in enumerate(payloads):
        put(out / "package_decode", f"{i:04d}-{p.name}", p.read_bytes())
        put(out / "compact_decode", f"{i:04d}-{p.name}", p.read_bytes())
    vectors = data / "vectors"
    for i, line in enumerate((vectors / "config-digest.jsonl").read_text().split("\n")):
        if line.strip():
            put(out / "config_digest", f"vector-{i:04d}", json.loads(line)["input"].encode())
    for i, line in enumerate((vectors / "go-json.jsonl").read_text().split("\n")):
        if line.strip():
            put(out / "json_reader", f"go-vector-{i:04d}", json.loads(line)["input"].encode())
    for i, line in enumerate(gzip.decompress((vectors / "zarf-package-marshal.jsonl.gz").read_bytes()).decode().split("\n")):
        if line.strip():
            raw = json.loads(line)["input"].encode()
            if len(raw) <= MAX:
                put(out / "zarf_package", f"vector-{i:04d}", raw)
    put(out / "zarf_package", "demo.yaml", DEMO_YAML)
    for p in sorted((data / "logs").iterdir()):
        put(out / "log_reader", p.name, p.read_bytes())
    if seed_compact:
        env = out / "compact_decode"
        env.mkdir(parents=True, exist_ok=True)
        small = [str(p) for p in payloads if p.stat().st_size <= MAX]
        subprocess.run([seed_compact, str(env)] + small, check=True, stdout=subprocess.DEVNULL)
        for p in env.glob("envelope-*"):
            put(out / "package_decode", p.name, p.read_bytes())
    regressions = data / "fuzz-regressions"
    if regressions.is_dir():
        for target_dir in regressions.iterdir():
            for p in target_dir.glob("*"):
                put(out / target_dir.name, "regression-" + p.name, p.read_bytes())
    for t in sorted(out.iterdir()):
        print(f"  {t.name}: {sum(1 for _ in t.iterdir())} seeds")


if __name__ == "__main__":
    main()
