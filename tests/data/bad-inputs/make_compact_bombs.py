#!/usr/bin/env python3
"""Writes the compact expansion bombs of the bad-input corpus.

Each is a package Secret whose `data-compact` holds a valid envelope (magic,
version 1, zstd flag, no dictionary, the declared length, the XXH64 of the
frame) around a zstd frame of one Protobuf field repeated: a tiny input that
expands to millions of empty messages. Run from anywhere; needs the `zstd`
command. The files are committed; rerun only to change them.

  make_compact_bombs.py [OUT_DIR]   (default: this script's folder)
"""
import base64
import json
import os
import struct
import subprocess
import sys

P1 = 11400714785074694791
P2 = 14029467366897019727
P3 = 1609587929392839161
P4 = 9650029242287828579
P5 = 2870177450012600261
M = (1 << 64) - 1


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M


def _round(acc, lane):
    acc = (acc + lane * P2) & M
    return (_rotl(acc, 31) * P1) & M


def _merge(acc, val):
    acc ^= _round(0, val)
    return (acc * P1 + P4) & M


def xxh64(data, seed=0):
    n = len(data)
    i = 0
    if n >= 32:
        v = [(seed + P1 + P2) & M, (seed + P2) & M, seed, (seed - P1) & M]
        while i + 32 <= n:
            for k in range(4):
                v[k] = _round(v[k], struct.unpack_from("<Q", data, i + 8 * k)[0])
            i += 32
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)) & M
        for k in range(4):
            h = _merge(h, v[k])
    else:
        h = (seed + P5) & M
    h = (h + n) & M
    while i + 8 <= n:
        h ^= _round(0, struct.unpack_from("<Q", data, i)[0])
        h = (_rotl(h, 27) * P1 + P4) & M
        i += 8
    if i + 4 <= n:
        h ^= (struct.unpack_from("<I", data, i)[0] * P1) & M
        h = (_rotl(h, 23) * P2 + P3) & M
        i += 4
    while i < n:
        h ^= (data[i] * P5) & M
        h = (_rotl(h, 11) * P1) & M
        i += 1
    h ^= h >> 33
    h = (h * P2) & M
    h ^= h >> 29
    h = (h * P3) & M
    h ^= h >> 32
    return h


def envelope(proto):
    frame = subprocess.run(["zstd", "-19", "-q", "-c", "--no-check"], input=proto,
                           stdout=subprocess.PIPE, check=True).stdout
    header = b"\x89ZSC" + bytes([1, 1]) + struct.pack("<IIQ", 0, len(proto), xxh64(frame))
    return header + frame


def secret(name, proto):
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {
            "name": "zarf-package-" + name,
            "namespace": "zarf",
            "labels": {"app.kubernetes.io/managed-by": "zarf",
                       "package-deploy-info": name},
            "annotations": {"zarf-state.dev/codec": "compact/v1"},
        },
        "type": "Opaque",
        "data": {"data-compact": base64.b64encode(envelope(proto)).decode()},
    }


# DeployedPackage field 6 (deployed_components) and 11 (events), each an
# empty length-delimited message: the two bytes (field << 3 | 2) 00.
BOMBS = {
    # 64 MiB, the old declared-length limit: 33.5M empty components.
    "compact-bomb-components-64mib": b"\x32\x00" * (32 << 20),
    # Under the decompressed-size cap: only the element budget stops it.
    "compact-bomb-components-12mib": b"\x32\x00" * (6 << 20),
    "compact-bomb-events-4mib": b"\x5a\x00" * (2 << 20),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for name, proto in BOMBS.items():
        path = os.path.join(out, name + ".secret.json")
        with open(path, "w") as f:
            json.dump(secret(name, proto), f, indent=1)
            f.write("\n")
        print(path, os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
