#!/usr/bin/env python3
"""Checks the layers of the source tree (docs/layout.md):

  - every top-level folder holding C++ sources is a known one;
  - every #include "DIR/..." of a library folder points down the ranks
    (its own folder, or a folder of a lower rank: never up, never sideways
    to a peer of the same rank), and never into a folder that is not known;
  - X/internal/ headers are included from X/ alone (and from the harnesses,
    which look inside: tests/, fuzz/, bench/, testing/);
  - in cli/, a file that is not a command (NAME_cmd.*) nor main.cc includes
    no command's header (what commands share lives outside them);
  - each library's CMakeLists.txt links (target_link_libraries of zs_X) the
    libraries of exactly the folders X includes: none it does not include,
    none missing.

Ranks, lowest first (a folder may include its own and lower ranks):
  0  base                  Status/Result, hex, digests, base64, SIMD dispatch, terminal text
  1  io, json              files and streams; the JSON family (peers)
  2  yaml                  YAML into json::Value
  3  model                 DeployedPackage, timestamps, names, credentials, configs, Go types
  4  compact               the compact codec and gzip
  5  kube                  Secret objects, package Secrets, kubectl
  6  engine, migrate       the event log, fold, cache; migration (peers)
  7  report                HTML writer, SVG plots, growth simulation
  8  cli                   the zarf-state program
  9  testing, fuzz, bench  harnesses (and tests/, which is not checked)

Usage: check_layers.py [SOURCE_DIR] [--expect-violations N]
SOURCE_DIR defaults to the repository that holds this script.
Exit 0 when the tree has no violation (or exactly N with --expect-violations,
which the self-test uses on a planted tree); 1 otherwise, listing each as
FILE[:LINE]: the problem."""
import os
import re
import sys

RANK = {"base": 0, "io": 1, "json": 1, "yaml": 2, "model": 3, "compact": 4, "kube": 5,
        "engine": 6, "migrate": 6, "report": 7, "cli": 8,
        "testing": 9, "fuzz": 9, "bench": 9}
# Folders that are libraries of the product: one CMake library zs_<folder>.
LIBRARIES = [f for f in RANK if RANK[f] < 9]
# tests/ holds helpers the harnesses share (fixtures, runners): their rank.
TESTS_RANK = 9
HARNESSES = ("tests/", "fuzz/", "bench/", "testing/")
# Top-level folders that hold no library code and are not checked.
UNCHECKED = {"tests", "docs", "packaging"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Za-z0-9_]+)/([^"]+)"')
COMMAND = re.compile(r"_cmd\.(h|cc)$")


def sources(root, top):
    for dirpath, dirs, files in os.walk(os.path.join(root, top)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".h", ".cc")):
                yield os.path.join(dirpath, name)


def unknown_folders(root):
    found = []
    for top in sorted(os.listdir(root)):
        path = os.path.join(root, top)
        if top.startswith(".") or not os.path.isdir(path) or top in RANK or top in UNCHECKED:
            continue
        if os.path.exists(os.path.join(path, "CMakeCache.txt")):
            continue  # a build folder
        if next(sources(root, top), None) is not None:
            found.append(f"{top}/: a folder of sources the layering does not know: give it a "
                         f"rank in tests/layering/check_layers.py and docs/layout.md")
    return found


def lower(top):
    return ", ".join(t for t in RANK if RANK[t] < RANK[top]) or "nothing else"


def include_violations(root, top, included):
    found = []
    for path in sources(root, top):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        name = os.path.basename(rel)
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target, rest = m.group(1), m.group(2)
                where = f"{rel}:{number}"
                if target == top:
                    if top == "cli" and COMMAND.search(rest) and not COMMAND.search(name) \
                            and name != "main.cc":
                        found.append(f"{where}: includes the command header cli/{rest} from "
                                     f"{name}, which is not a command: move what it shares "
                                     f"out of the command")
                    continue
                if target == "tests":
                    if RANK[top] != TESTS_RANK:
                        found.append(f"{where}: includes tests/{rest} from {top}/: only the "
                                     f"harnesses may")
                    continue
                if target not in RANK:
                    if os.path.isdir(os.path.join(root, target)) and target not in UNCHECKED:
                        found.append(f"{where}: includes {target}/{rest}: {target}/ is not a "
                                     f"known folder")
                    continue  # a generated or third-party header
                included.add(target)
                if RANK[target] > RANK[top]:
                    found.append(f"{where}: includes {target}/{rest} from {top}/: includes "
                                 f"must point down ({top} may use {lower(top)})")
                elif RANK[target] == RANK[top] and RANK[top] != TESTS_RANK:
                    found.append(f"{where}: includes {target}/{rest} from {top}/: {target} and "
                                 f"{top} are peers of one rank, neither includes the other")
                elif rest.startswith("internal/") and not rel.startswith(HARNESSES):
                    found.append(f"{where}: includes {target}/{rest}: {target}/internal/ is "
                                 f"for {target}/ alone")
    return found


LINK = re.compile(r"target_link_libraries\s*\(\s*zs_([a-z]+)\b([^)]*)\)", re.S)
LIB = re.compile(r"\bzs(?:_|::)([a-z]+)\b")


def link_violations(root, top, included):
    cmake = os.path.join(root, top, "CMakeLists.txt")
    if not os.path.exists(cmake):
        return [f"{top}/: no CMakeLists.txt with the library zs_{top}"]
    with open(cmake, encoding="utf-8") as f:
        text = f.read()
    linked = set()
    defined = False
    for m in LINK.finditer(text):
        if m.group(1) != top:
            continue
        defined = True
        linked.update(lib for lib in LIB.findall(m.group(2)) if lib in RANK)
    if not defined:
        return [f"{top}/CMakeLists.txt: no target_link_libraries(zs_{top} ...)"]
    found = []
    for lib in sorted(linked - included):
        found.append(f"{top}/CMakeLists.txt: zs_{top} links zs_{lib} but includes nothing of "
                     f"{lib}/")
    for lib in sorted(included - linked):
        found.append(f"{top}/CMakeLists.txt: zs_{top} includes {lib}/ but does not link "
                     f"zs_{lib}")
    return found


def violations(root):
    found = unknown_folders(root)
    for top in sorted(RANK, key=lambda t: (RANK[t], t)):
        if not os.path.isdir(os.path.join(root, top)):
            continue
        included = set()
        found += include_violations(root, top, included)
        if top in LIBRARIES:
            found += link_violations(root, top, included)
    return found


def parse_args(argv):
    """Returns (root, expected violations or None); exits 2 on a bad command line."""
    args = list(argv)
    expect = None
    if "--expect-violations" in args:
        at = args.index("--expect-violations")
        if at + 1 >= len(args):
            sys.exit("check_layers.py: --expect-violations needs a number")
        expect = int(args[at + 1])
        del args[at:at + 2]
    if len(args) > 1:
        sys.exit("usage: check_layers.py [SOURCE_DIR] [--expect-violations N]")
    if args:
        return args[0], expect
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..")), expect


def main():
    root, expect = parse_args(sys.argv[1:])
    found = violations(root)
    for v in found:
        print(v)
    if expect is not None:
        ok = len(found) == expect
        print(f"{len(found)} violation(s), expected {expect}: {'ok' if ok else 'FAIL'}")
        return 0 if ok else 1
    print(f"{len(found)} violation(s)" if found else "layers: ok")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
