#!/usr/bin/env python3
"""Peak memory of zarf-state on hostile and on the largest legal inputs.

Runs each command once per input and reports the child's peak resident set
(getrusage of the waited child) and its multiple of the input size; the
figures of docs/reliability.md#peak-memory come from here.

  bench/run_budget_rss.py [BUILD_DIR]   (default: build)

Inputs: the compact bombs of tests/data/bad-inputs, the largest package
fixture (a payload near the 1 MiB limit), and generated
payloads: a million empty components and a million numbers (over the
memory budget), the densest legal objects (8 bytes each) and scalars
(2 bytes each), and a 100 MB description.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
BINARY = os.path.join(BUILD, "zarf-state")
BAD = os.path.join(ROOT, "tests", "data", "bad-inputs")
NEAR_LIMIT = os.path.join(ROOT, "tests", "data", "legacy", "e22-v0.80.0-v0.84.0",
                          "pkg-edge-near-1mib.payload.json")

HEAD = '{"name":"p","cliVersion":"v0.84.0","generation":1,"deployedComponents":['


def generate(tmp):
    files = {}
    path = os.path.join(tmp, "components-1m-3-bytes.json")
    with open(path, "w") as f:
        f.write(HEAD + "{}" + ",{}" * 999999 + "]}")
    files["1M empty components, 3 B each (over budget)"] = path
    path = os.path.join(tmp, "components-30k-8-bytes.json")
    with open(path, "w") as f:
        f.write(HEAD + "{}" + ",     {}" * 29999 + "]}")
    files["30k empty components, 8 B each (legal, densest)"] = path
    path = os.path.join(tmp, "numbers-1m.json")
    with open(path, "w") as f:
        f.write('{"name":"n","data":{"kind":"ZarfPackageConfig","values":['
                + "0" + ",0" * 999999 + ']},"cliVersion":"v0.84.0","generation":1}')
    files["1M numbers in data, 2 B each (over budget)"] = path
    path = os.path.join(tmp, "numbers-500k.json")
    with open(path, "w") as f:
        f.write('{"name":"n","data":{"kind":"ZarfPackageConfig","values":['
                + "0" + ",0" * 499999 + ']},"cliVersion":"v0.84.0","generation":1}')
    files["500k numbers in data, 2 B each (legal)"] = path
    path = os.path.join(tmp, "description-100mb.json")
    with open(path, "w") as f:
        f.write('{"name":"big","data":{"kind":"ZarfPackageConfig","metadata":{"name":"big",'
                '"description":"')
        for _ in range(100):
            f.write("x" * (1 << 20))
        f.write('"}},"cliVersion":"v0.84.0","generation":1,"deployedComponents":[]}')
    files["100 MB description"] = path
    return files


def peak(args, tmp):
    """Exit code and peak RSS (KiB) of one run, measured by GNU time: a small
    parent, since a child's peak counts the memory it had before exec."""
    report = os.path.join(tmp, "time.txt")
    with open(os.devnull, "wb") as null:
        code = subprocess.run(["/usr/bin/time", "-o", report, "-f", "%M"] + args,
                              stdout=null, stderr=null, check=False).returncode
    with open(report) as f:
        return code, int(f.read().split()[-1])


def main():
    with tempfile.TemporaryDirectory() as tmp:
        inputs = {
            "bomb: 64 MiB of components": os.path.join(BAD, "compact-bomb-components-64mib.secret.json"),
            "bomb: 12 MiB of components": os.path.join(BAD, "compact-bomb-components-12mib.secret.json"),
            "bomb: 4 MiB of events": os.path.join(BAD, "compact-bomb-events-4mib.secret.json"),
            "near-1 MiB package, JSON": NEAR_LIMIT,
        }
        inputs.update(generate(tmp))
        print("| input | bytes | command | exit | peak RSS MiB | x input |")
        print("|---|---:|---|---:|---:|---:|")
        for name, path in inputs.items():
            size = os.path.getsize(path)
            for command in ("inspect", "size", "migrate"):
                code, kib = peak([BINARY, command, "-f", path], tmp)
                print(f"| {name} | {size} | {command} | {code} | {kib / 1024:.0f} | "
                      f"{kib * 1024 / size:.0f} |")


if __name__ == "__main__":
    main()
