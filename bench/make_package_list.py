#!/usr/bin/env python3
"""Writes a Kubernetes List of N package Secrets to stdout, for `size`, `inspect`
and `migrate` at scale: each a small ZEP-0026 package (one component, two images,
a deploy and an upgrade recorded), with its own name, digests and times, as
`kubectl get secrets -n zarf -l package-deploy-info -o json` prints them.

Usage: bench/make_package_list.py N [SEED] > list.json
"""
import base64
import hashlib
import json
import sys


def digest(seed, *parts):
    text = "/".join(str(p) for p in (seed,) + parts)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def stamp(seconds):
    day, rest = divmod(seconds, 86400)
    hour, rest = divmod(rest, 3600)
    minute, second = divmod(rest, 60)
    return "2026-%02d-%02dT%02d:%02d:%02d.%09dZ" % (
        1 + day // 28 % 12, 1 + day % 28, hour, minute, second, (seconds * 7919) % 10**9)


def package(i, seed):
    name = "pkg-%06d" % i
    version = "1.%d.%d" % (i % 7, i % 13)
    start = i * 37
    events = []
    for n, kind in enumerate(("Deploy", "Deploy")):
        for outcome in ("InProgress", "Succeeded"):
            events.append({"type": kind, "outcome": outcome,
                           "timestamp": stamp(start + 60 * n + (outcome == "Succeeded")),
                           "version": version, "digest": digest(seed, i, n),
                           "source": "oci://registry.example.com/packages/%s:%s" % (name, version),
                           "configDigest": digest(seed, i, n, "config")})
    images = ["registry.example.com/team-%d/%s-%s:%s" % (i % 17, name, part, version)
              for part in ("api", "worker")]
    return {
        "name": name,
        "digest": digest(seed, i, 1),
        "data": {"kind": "ZarfPackageConfig",
                 "metadata": {"name": name, "version": version,
                              "description": "Synthetic package %d" % i},
                 "build": {"architecture": "amd64", "timestamp": "", "version": "v0.84.0"},
                 "components": [{"name": "app", "required": True,
                                 "manifests": [{"name": "app", "namespace": name,
                                                "files": ["manifests/app.yaml"]}],
                                 "images": images}]},
        "cliVersion": "v0.84.0",
        "generation": 2,
        "deployedComponents": [{"name": "app", "installedCharts": [
            {"namespace": name, "chartName": "zarf-" + digest(seed, i, "chart")[7:47],
             "status": "Succeeded"}], "status": "Succeeded", "observedGeneration": 2}],
        "packageConnectivity": "airgap",
        "events": events,
    }


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip())
    count = int(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) == 3 else 1
    out = sys.stdout
    out.write('{"apiVersion":"v1","kind":"List","metadata":{},"items":[')
    for i in range(count):
        pkg = package(i, seed)
        payload = json.dumps(pkg, separators=(",", ":")).encode()
        secret = {"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
                  "metadata": {"name": "zarf-package-" + pkg["name"], "namespace": "zarf",
                               "labels": {"app.kubernetes.io/managed-by": "zarf",
                                          "package-deploy-info": pkg["name"]}},
                  "data": {"data": base64.b64encode(payload).decode()}}
        out.write(("," if i else "") + json.dumps(secret, separators=(",", ":")))
    out.write("]}\n")


if __name__ == "__main__":
    main()
