#!/usr/bin/env python3
"""`zarf-state report` of N package Secrets, opened in headless Chromium.

usage: bench/run_report_bench.py [BUILD_DIR] [N] [CPU]   (defaults: build, 1000, unpinned)

Generates a List of N package Secrets (each with 4 components, charts and 10
Deploy events, as `record` writes them), writes the report, and opens a copy
of it in headless Chromium three times. The copy logs, at the first frame
after the load event, the page's own clock (performance.now(): from the
start of navigation, so Chromium's start-up is not counted); the median is
the time the page takes to open. With CPU, the report and every Chromium
process run pinned to that one CPU (taskset), and the CPU seconds Chromium
used are printed too (a figure a busy machine inflates less than the
clock). Not a test: docs/performance.md quotes its figures.
"""
import base64
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0", "--window-size=1280,1000"]
# Logs the page's clock at the first frame after the load event.
PROBE = ("<script>addEventListener('load',function(){requestAnimationFrame(function(){"
         "setTimeout(function(){console.log('zs-open '+performance.now())},0)})})</script>")


def package(i):
    name = "pkg-%04d" % i
    comps = []
    for c in range(4):
        comps.append({"name": "component-%d" % c,
                      "installedCharts": [{"namespace": name, "chartName": "chart-%d" % c,
                                           "status": "Succeeded"}],
                      "status": "Succeeded", "observedGeneration": 10,
                      "lastEvent": {"type": "Deploy", "outcome": "Succeeded",
                                    "timestamp": "2026-11-30T10:%02d:30Z" % (i % 60)}})
    events = []
    for e in range(10):
        outcome = "InProgress" if e % 2 == 0 else ("Failed" if e == 5 else "Succeeded")
        events.append({"type": "Deploy", "outcome": outcome,
                       "timestamp": "2026-11-%02dT10:%02d:00Z" % (10 + e, i % 60),
                       "version": "1.%d.0" % (e // 4),
                       "configDigest": "sha256:" + ("%064x" % (e // 3 + i))})
    return {"name": name, "digest": "sha256:" + "%064x" % i,
            "data": {"kind": "ZarfPackageConfig",
                     "metadata": {"name": name, "version": "1.2.0"},
                     "components": [{"name": "component-%d" % c, "required": True}
                                    for c in range(4)]},
            "cliVersion": "v0.84.0", "generation": 10, "deployedComponents": comps,
            "events": events}


def secret(pkg):
    payload = json.dumps(pkg, separators=(",", ":")).encode()
    return {"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
            "metadata": {"name": "zarf-package-" + pkg["name"], "namespace": "zarf",
                         "labels": {"package-deploy-info": pkg["name"]}},
            "data": {"data": base64.b64encode(payload).decode()}}


PIN = []


def open_secs(browser, page, work):
    probed = page + ".probe.html"
    text = open(page).read()
    # The page's CSP allows inline scripts; the probe goes before </body>.
    open(probed, "w").write(text.replace("</body>", PROBE + "</body>"))
    times, cpu = [], []
    for _ in range(3):
        profile = tempfile.mkdtemp(dir=work)
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run(PIN + [browser] + FLAGS + ["--user-data-dir=" + profile,
                                                "--screenshot=" + os.path.join(work, "s.png"),
                                                "file://" + probed],
                           capture_output=True, text=True, timeout=120)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
        shutil.rmtree(profile, ignore_errors=True)
        for line in p.stderr.splitlines():
            if "zs-open " in line:
                times.append(float(line.split("zs-open ")[1].split('"')[0]) / 1000)
    if not times:
        raise SystemExit("the probe logged nothing")
    return statistics.median(times), statistics.median(cpu)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    if len(sys.argv) > 3:
        PIN.extend(["taskset", "-c", sys.argv[3]])
    binary = os.path.join(build, "zarf-state")
    browser = shutil.which("chromium")
    work = tempfile.mkdtemp(prefix="report-bench-")
    try:
        listing = os.path.join(work, "secrets.json")
        json.dump({"apiVersion": "v1", "kind": "List",
                   "items": [secret(package(i)) for i in range(n)]}, open(listing, "w"))
        page = os.path.join(work, "report.html")
        t = time.monotonic()
        subprocess.run(PIN + [binary, "report", "-f", listing, "--now", "2026-12-01T00:00:00Z",
                        "--out", page], check=True, capture_output=True)
        report_secs = time.monotonic() - t
        print("%d packages: report written in %.2f s, %.1f MB" %
              (n, report_secs, os.path.getsize(page) / 1e6))
        if browser is None:
            print("chromium not installed: no browser figure")
            return 0
        empty = os.path.join(work, "empty.html")
        open(empty, "w").write("<!DOCTYPE html><title>empty</title><body></body>")
        (base, base_cpu), (full, full_cpu) = open_secs(browser, empty, work), open_secs(browser, page, work)
        print("headless chromium, navigation start to the first frame after load "
              "(median of 3): empty page %.2f s, report %.2f s" % (base, full))
        print("chromium CPU seconds, start to exit (median of 3): empty page %.2f s, "
              "report %.2f s" % (base_cpu, full_cpu))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
