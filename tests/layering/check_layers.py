#!/usr/bin/env python3
"""Checks that every #include "DIR/..." in the source tree points down the
layers, and that no folder's internal/ headers are included from outside it.

Layers, lowest first (a file may include its own folder and lower layers):
  base                   Status/Result, hex, digests, base64, SIMD dispatch
  json                   the JSON family (zs::json), on base
  yaml                   YAML (zs::yaml), on json (it reads into json::Value)
  codec                  the model and the codecs
  engine, migrate        each on codec and below; neither includes the other
  tools                  the binary, on everything above
  fuzz, bench            harnesses, on everything (and tests/' shared helpers)
Internal headers (X/internal/...) are for X itself and for the harnesses
that look inside it: tests/, fuzz/, bench/ and testing/. tests/ is not
checked (it may include anything).

Usage: check_layers.py SOURCE_DIR [--expect-violations N]
Exit 0 when the tree has no violation (or exactly N with --expect-violations,
which the self-test uses on a planted tree); 1 otherwise, listing each as
FILE:LINE: the problem."""
import os
import re
import sys

RANK = {"base": 0, "json": 1, "yaml": 2, "codec": 3, "engine": 4, "migrate": 4, "tools": 5,
        "fuzz": 6, "bench": 6}
# tests/ holds helpers the harnesses share (fixtures, runners): their layer.
TESTS_RANK = 6
HARNESSES = ("tests/", "fuzz/", "bench/", "testing/")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]+)"')


def violations(root):
    found = []
    for top in sorted(RANK):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".h", ".cc")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target, rest = m.group(1), m.group(2)
                        where = f"{rel}:{number}"
                        if target not in RANK and target != "tests":
                            continue  # a generated or third-party header
                        rank = TESTS_RANK if target == "tests" else RANK[target]
                        if target != top and rank >= RANK[top] and not (
                                target == "tests" and RANK[top] == TESTS_RANK):
                            found.append(f"{where}: includes {target}/{rest} from {top}/: "
                                         f"includes must point down ({top} may use "
                                         f"{', '.join(t for t in RANK if RANK[t] < RANK[top]) or 'nothing else'})")
                        elif rest.startswith("internal/") and target != top and \
                                not rel.startswith(HARNESSES):
                            found.append(f"{where}: includes {target}/{rest}: "
                                         f"{target}/internal/ is for {target}/ alone")
    return found


def main():
    root = sys.argv[1]
    expect = None
    if len(sys.argv) == 4 and sys.argv[2] == "--expect-violations":
        expect = int(sys.argv[3])
    found = violations(root)
    for v in found:
        print(v)
    if expect is not None:
        ok = len(found) == expect
        print(f"{len(found)} violation(s), expected {expect}: {'ok' if ok else 'FAIL'}")
        return 0 if ok else 1
    print(f"{len(found)} violation(s)" if found else "includes point down: ok")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
