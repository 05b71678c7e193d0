#!/usr/bin/env python3
"""Writes N ZarfPackage definitions (JSON) that no zarf-state dictionary was
trained on: their own vocabulary, registries, chart names, actions and
descriptions, from their own seed. `bench/run_compact_holdout.sh` records each
as a deployed package and compares the Secret's compact size with its JSON and
gzip sizes, so the compact ratios are measured out of sample.
Usage: holdout_packages.py OUT_DIR [N] [SEED]"""
import json
import os
import random
import sys

WORDS = ("aurora basalt cinder drift ember fjord glacier harbor isle juniper kestrel lumen "
         "meadow nimbus orchard prairie quartz ridge sierra tundra umber vale willow xenon "
         "yarrow zephyr anvil beacon compass dynamo falcon granite helix iris jetty kiln "
         "lantern mosaic nectar onyx pylon quiver rampart sextant trellis vector").split()
VERBS = ("collects exports renders schedules indexes mirrors balances compacts audits "
         "replicates signs scans throttles routes caches").split()
NOUNS = ("telemetry, invoices, sensor readings, tile layers, audit trails, build artifacts, "
         "ledger entries, map overlays, chat transcripts, model weights, feature flags").split(", ")
REGISTRIES = ("quay.io/{o}", "registry.gitlab.com/{o}", "public.ecr.aws/{o}", "docker.io/{o}",
              "harbor.internal.example:8443/{o}", "gcr.io/{o}-prod", "{o}.azurecr.io")
SHELL = ("kubectl rollout status deploy/{n} -n {ns} --timeout=300s",
         "./scripts/wait-for.sh {n}.{ns}.svc:{p}",
         "helm test {n} -n {ns} --logs",
         "curl -fsS http://{n}.{ns}.svc:{p}/healthz",
         "kubectl -n {ns} annotate deploy/{n} rollout.example/at=$(date +%s) --overwrite")


def sentence(r):
    return (f"{r.choice(WORDS).capitalize()} {r.choice(VERBS)} {r.choice(NOUNS)} "
            f"for the {r.choice(WORDS)} {r.choice(['site', 'fleet', 'enclave', 'cluster'])}.")


def image(r, org):
    repo = r.choice(REGISTRIES).format(o=org) + "/" + "-".join(r.sample(WORDS, r.randint(1, 2)))
    if r.random() < 0.3:
        return repo + "@sha256:" + "".join(r.choice("0123456789abcdef") for _ in range(64))
    return repo + f":{r.randint(0, 9)}.{r.randint(0, 40)}.{r.randint(0, 20)}"


def component(r, org, ns):
    name = "-".join(r.sample(WORDS, 2))
    c = {"name": name, "description": sentence(r), "required": r.random() < 0.4}
    if r.random() < 0.8:
        c["charts"] = [{
            "name": name, "version": f"{r.randint(0, 5)}.{r.randint(0, 30)}.{r.randint(0, 9)}",
            "namespace": ns, "url": f"oci://ghcr.io/{org}/charts/{name}",
            "valuesFiles": [f"values/{name}-{v}.yaml" for v in r.sample(["base", "airgap", "ha", "dev"], r.randint(1, 3))],
        }]
    else:
        c["manifests"] = [{"name": name, "namespace": ns,
                           "files": [f"manifests/{name}/{f}.yaml" for f in r.sample(["deploy", "svc", "rbac", "pdb", "hpa"], r.randint(1, 4))]}]
    c["images"] = [image(r, org) for _ in range(r.randint(1, 8))]
    if r.random() < 0.5:
        p = r.choice([80, 443, 8080, 9090, 3000])
        c["actions"] = {"onDeploy": {"after": [
            {"cmd": r.choice(SHELL).format(n=name, ns=ns, p=p), "description": sentence(r),
             "maxRetries": r.randint(0, 5)} for _ in range(r.randint(1, 3))]}}
    return c


def package(r, i):
    org = r.choice(WORDS) + "-" + r.choice(["labs", "systems", "ops", "defense", "works"])
    ns = r.choice(WORDS)
    name = f"{r.choice(WORDS)}-{r.choice(WORDS)}-{i}"
    p = {"kind": "ZarfPackageConfig",
         "metadata": {"name": name, "description": sentence(r) + " " + sentence(r),
                      "version": f"{r.randint(0, 3)}.{r.randint(0, 20)}.{r.randint(0, 9)}",
                      "authors": f"{r.choice(WORDS)}@{org}.example", "architecture": "amd64"},
         "components": [component(r, org, ns) for _ in range(r.randint(1, 12))]}
    if r.random() < 0.6:
        p["variables"] = [{"name": f"{w.upper()}_{r.choice(['URL', 'REPLICAS', 'MODE'])}",
                           "description": sentence(r), "default": str(r.randint(1, 9)),
                           "prompt": r.random() < 0.3} for w in r.sample(WORDS, r.randint(1, 5))]
    return p


def main():
    out, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 75
    r = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 20240917)
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        with open(os.path.join(out, f"pkg-{i:03d}.json"), "w") as f:
            json.dump(package(r, i), f, indent=2)


if __name__ == "__main__":
    main()
