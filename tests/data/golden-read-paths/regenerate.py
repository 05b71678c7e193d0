#!/usr/bin/env python3
"""Writes tests/data/golden-read-paths/<name>.out for every case of cases.txt by running
the zarf-state binary given (the format is read back by
tests/tools/read_paths_golden_test.cc)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)


def cases():
    with open(os.path.join(HERE, "cases.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, stdin, *args = line.split()
                yield name, stdin.replace("@DATA@", DATA), [a.replace("@DATA@", DATA) for a in args]


def run(binary, stdin, args):
    if stdin == "-":
        p = subprocess.run([binary] + args, stdin=subprocess.DEVNULL, capture_output=True)
        return p.returncode, p.stdout, p.stderr
    kind, path = stdin.split(":", 1)
    if kind == "file":
        with open(path, "rb") as f:
            p = subprocess.run([binary] + args, stdin=f, capture_output=True)
        return p.returncode, p.stdout, p.stderr
    with open(path, "rb") as f:
        text = f.read()
    p = subprocess.Popen([binary] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    out, err = p.communicate(text)
    return p.returncode, out, err


def main():
    binary = sys.argv[1]
    for name, stdin, args in cases():
        code, out, err = run(binary, stdin, args)
        text = out + b"--- stderr, exit %d ---\n" % code + err
        with open(os.path.join(HERE, name + ".out"), "wb") as f:
            f.write(text.replace(DATA.encode(), b"@DATA@"))


if __name__ == "__main__":
    main()
