#!/usr/bin/env python3
"""`zarf-state report` pages opened in headless Chromium (Debian's `chromium`).

usage: report_browser_test.py ZARF_STATE DATA_DIR

Writes reports of the fixture corpus (every era's Secrets; a recorded
package with its cache history, a migration report, a prune plan and growth
curves; a package whose names are HTML), opens each in a fresh headless
Chromium behind a recording proxy, and checks:
  * the rendered DOM (--dump-dom) names every package and component, and has
    every event (type/outcome, and its exact time on hover) of every package;
  * a fleet past 200 packages renders 200 rows, the rest when the script is
    asked for them, and its source holds every row as markup for a browser
    without the script;
  * the page made no network request and logged nothing to the console;
  * names holding markup stay text: no element or handler comes from input;
  * a screenshot is not blank.
A deliberately bad page first proves that the request and console checks can
fail. Exit 77 (skipped) when chromium is not installed.
"""
import base64
import html.parser
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import zlib

SKIP = 77
# Hosts Chromium itself contacts whatever the page (component updater,
# sign-in): not the page's requests. The report's CSP and the static check
# below cover a page that would name one of them.
BROWSER_HOSTS = ("google.com", "googleapis.com", "gvt1.com", "gstatic.com")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--no-pings",
         "--disable-domain-reliability", "--disable-features=NetworkTimeServiceQuerying",
         "--password-store=basic", "--enable-logging=stderr", "--v=0"]

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)
    return ok


class Proxy:
    """An HTTP proxy that answers nothing and records every request line."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(32)
        self.port = self.sock.getsockname()[1]
        self.lines = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.settimeout(2)
            try:
                self.lines.append(conn.recv(8192).split(b"\r\n")[0].decode("latin-1"))
            except OSError:
                self.lines.append("(unreadable request)")
            conn.close()

    def page_requests(self):
        out = []
        for line in self.lines:
            parts = line.split()
            target = parts[1] if len(parts) > 1 else line
            host = target.split("://")[-1].split("/")[0].split(":")[0]
            if not any(host == h or host.endswith("." + h) for h in BROWSER_HOSTS):
                out.append(line)
        return out


def chromium(browser, page, work, extra):
    proxy = Proxy()
    profile = tempfile.mkdtemp(prefix="profile-", dir=work)
    cmd = [browser] + FLAGS + ["--user-data-dir=" + profile,
                               "--proxy-server=http://127.0.0.1:%d" % proxy.port,
                               "--proxy-bypass-list=<-loopback>"] + extra + ["file://" + page]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    proxy.sock.close()
    shutil.rmtree(profile, ignore_errors=True)
    console = [l for l in p.stderr.splitlines() if ":CONSOLE" in l]
    return p, proxy.page_requests(), console


class Dom(html.parser.HTMLParser):
    """Text, event items, and what could run or load, of a dumped DOM."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text, self.events, self.scripts, self.elements = [], [], 0, []
        self.handlers, self.urls = [], []
        self._event_depth = None
        self._depth = 0
        self.table_rows, self.search_rows, self.noscripts = 0, 0, 0
        self._in_table = False

    def handle_starttag(self, tag, attrs):
        self._depth += 1
        self.elements.append(tag)
        a = dict(attrs)
        if tag == "script":
            self.scripts += 1
        for name, value in attrs:
            if name.startswith("on"):
                self.handlers.append((tag, name))
            if name in ("src", "href", "srcset", "action", "poster", "data") and value and \
                    not value.startswith("#"):
                self.urls.append((tag, name, value))
        if tag == "li" and "event" in (a.get("class") or "").split():
            self._event_depth = self._depth
            self.events.append("")
        if tag == "time" and self._event_depth is not None:
            self.events[-1] += " " + (a.get("title") or "") + " "
        if tag == "table" and a.get("id") == "package-table":
            self._in_table = True
        if tag == "tr" and "data-search" in a:
            self.search_rows += 1
            self.table_rows += 1 if self._in_table else 0
        if tag == "noscript":
            self.noscripts += 1

    def handle_endtag(self, tag):
        if tag == "table":
            self._in_table = False
        if self._event_depth == self._depth:
            self._event_depth = None
        self._depth -= 1

    def handle_data(self, data):
        self.text.append(data)
        if self._event_depth is not None:
            self.events[-1] += data


def parse_dom(text):
    d = Dom()
    d.feed(text)
    d.all_text = " ".join(" ".join(d.text).split())
    return d


def objects_of(path):
    """(kind, payload) of each state object of a JSON file."""
    doc = json.load(open(path))
    items = doc.get("items", []) if doc.get("kind") in ("List", "SecretList") else [doc]
    out = []
    for item in items:
        if item.get("kind") == "Secret":
            data = item.get("data") or {}
            for key, kind in (("data", "package"), ("state", "state")):
                if key in data:
                    try:
                        out.append((kind, json.loads(base64.b64decode(data[key]))))
                    except ValueError:
                        pass  # a malformed fixture: the report lists it as an error
        elif "deployedComponents" in item or "generation" in item:
            out.append(("package", item))
    return out


def check_page(browser, page, inputs, work, name):
    p, requests, console = chromium(browser, page, work, ["--dump-dom"])
    check(p.returncode == 0, "%s: chromium exit %d: %s" % (name, p.returncode, p.stderr[-400:]))
    check(not requests, "%s: network requests %r" % (name, requests))
    check(not console, "%s: console messages %r" % (name, console))
    dom = parse_dom(p.stdout)
    check(dom.scripts == 1, "%s: %d <script> elements, want the page's own 1" % (name, dom.scripts))
    check(not dom.handlers, "%s: event handler attributes %r" % (name, dom.handlers[:3]))
    check(not dom.urls, "%s: URLs in the DOM %r" % (name, dom.urls[:3]))
    packages = 0
    for path in inputs:
        for kind, obj in objects_of(path):
            if kind != "package":
                continue
            packages += 1
            check(obj["name"] in dom.all_text, "%s: package %r not in the DOM" % (name, obj["name"]))
            for c in obj.get("deployedComponents") or []:
                check(c["name"] in dom.all_text, "%s: component %r of %r not in the DOM"
                      % (name, c["name"], obj["name"]))
            for e in obj.get("events") or []:
                what = e["type"] + ("/" + e["outcome"] if e.get("outcome") else "")
                check(any(e["timestamp"] in li and what in li for li in dom.events),
                      "%s: event %s %s of %r not in the DOM" % (name, e["timestamp"], what, obj["name"]))
    check(packages > 0, "%s: no package in the inputs" % name)
    return dom


def fleet_package(i):
    name = "fleet-%03d" % i
    return {"name": name, "digest": "", "cliVersion": "v0.84.0", "generation": 1,
            "data": {"kind": "ZarfPackageConfig",
                     "metadata": {"name": name, "version": "1.0.0", "description": "x" * i}},
            "deployedComponents": [{"name": "comp-%03d" % i}],
            "events": [{"type": "Deploy", "outcome": "Succeeded",
                        "timestamp": "2026-11-%02dT10:00:00Z" % (1 + i % 28), "version": "1.0.0"}]}


def check_fleet(browser, binary, work, now):
    """250 packages: 200 rows at first, the rest on request, all without the script."""
    n = 250
    inputs = []
    for i in range(n):
        path = os.path.join(work, "fleet-%03d.json" % i)
        json.dump(fleet_package(i), open(path, "w"))
        inputs.append(path)
    page = os.path.join(work, "fleet.html")
    cmd = [binary, "report", "--out", page] + now
    for f in inputs:
        cmd += ["-f", f]
    run(cmd)
    dom = check_page(browser, page, inputs, work, "fleet")
    check(dom.table_rows == 200, "fleet: %d rows in the table, want 200" % dom.table_rows)
    # Without JavaScript a parser reads <noscript> as markup, as Python's does:
    # the page's source holds every row and every package body as elements.
    nojs = parse_dom(open(page).read())
    check(nojs.table_rows == 200, "fleet without script: %d rows in the first table" % nojs.table_rows)
    check(nojs.search_rows == n and nojs.noscripts == 1 + n - 200,
          "fleet without script: %d rows in %d noscript elements, want %d in %d"
          % (nojs.search_rows, nojs.noscripts, n, 1 + n - 200))
    # The script asked for every row and every package body.
    asked = os.path.join(work, "fleet-asked.html")
    open(asked, "w").write(open(page).read().replace(
        "</body>", "<script>document.getElementById('show-all-rows').click();"
        "document.getElementById('expand-all').click();</script></body>"))
    p, requests, console = chromium(browser, asked, work, ["--dump-dom"])
    dom = parse_dom(p.stdout)
    check(not console, "fleet asked: console messages %r" % console)
    check(dom.table_rows == n, "fleet asked: %d rows in the table, want %d" % (dom.table_rows, n))
    check(dom.noscripts == 0, "fleet asked: %d noscript elements left" % dom.noscripts)
    check(all("comp-%03d" % i in dom.all_text for i in range(n)), "fleet asked: a component missing")


def png_pixels(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit PNG, unfiltered."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, color = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert depth == 8 and color in (2, 6), "unexpected PNG format"
    bpp = 3 if color == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def not_blank(path):
    w, h, bpp, rows = png_pixels(path)
    counts = {}
    for row in rows[::4]:
        for x in range(0, w * bpp, 4 * bpp):
            px = row[x:x + 3]
            counts[px] = counts.get(px, 0) + 1
    total = sum(counts.values())
    top = max(counts.values())
    return len(counts), 1 - top / total


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode not in (0, 1):
        raise SystemExit("command failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr))
    return p


def main():
    binary, data = sys.argv[1], sys.argv[2]
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("SKIP: chromium is not installed (Debian package `chromium`; `make test` installs it)")
        return SKIP
    work = tempfile.mkdtemp(prefix="report-browser-")
    try:
        # The checks can fail: a page that loads a URL and logs an error.
        bad = os.path.join(work, "bad.html")
        open(bad, "w").write('<!DOCTYPE html><p>bad</p><img src="http://example.invalid/x.png">'
                             '<script>console.error("zs-bad")</script>')
        _, requests, console = chromium(browser, bad, work, ["--dump-dom"])
        check(any("example.invalid" in r for r in requests), "self-check: the proxy saw no request")
        check(any("zs-bad" in c for c in console), "self-check: the console message was not seen")
        if failures:
            return 1

        now = ["--now", "2026-12-01T12:00:00Z"]
        legacy = os.path.join(data, "legacy")
        eras = sorted(os.path.join(legacy, d, "all-secrets.list.json") for d in os.listdir(legacy)
                      if os.path.isfile(os.path.join(legacy, d, "all-secrets.list.json")))
        pages = [("eras", eras, [])]

        samples = os.path.join(data, "samples")
        secret = os.path.join(work, "zarf-package-podinfo.json")
        for args in (["--package", samples + "/podinfo-1.yaml", "--digest", "sha256:1111",
                      "--config", samples + "/deploy-config-1.json"],
                     ["--package", samples + "/podinfo-2.yaml", "--digest", "sha256:2222",
                      "--config", samples + "/deploy-config-2.yaml"],
                     ["--package", samples + "/podinfo-2.yaml", "--digest", "sha256:2222",
                      "--config", samples + "/deploy-config-2.yaml", "--fail", "dashboards"]):
            run([binary, "record", "deploy", "-f", secret] + args)
        db = os.path.join(work, "cache")
        run([binary, "ingest", "--db", db, "-f", secret])
        migration = os.path.join(work, "migration.json")
        open(migration, "w").write(run([binary, "migrate", "-f", samples + "/multi-era.list.json",
                                        "--dry-run", "--report-format", "json"]).stdout)
        plan = os.path.join(work, "plan.json")
        open(plan, "w").write(run([binary, "prune", "plan", "--deployed", secret, "--new",
                                   samples + "/podinfo-3.yaml", "--others",
                                   samples + "/others-list.json", "-o", "json"]).stdout)
        growth = os.path.join(work, "growth")
        run([binary, "bench", "growth", "--out", growth, "--cycles", "8", "--max-images", "3000"])
        pages.append(("full", [secret, samples + "/multi-era.list.json"],
                      ["--db", db, "--migrate-report", migration, "--prune-plan", plan,
                       "--growth", growth]))
        pages.append(("hostile", [os.path.join(data, "report", "hostile-names.payload.json")], []))

        for name, inputs, extra in pages:
            page = os.path.join(work, name + ".html")
            cmd = [binary, "report", "--out", page] + now + extra
            for f in inputs:
                cmd += ["-f", f]
            run(cmd)
            dom = check_page(browser, page, inputs, work, name)
            if name == "full":
                for section in ("Migration", "Prune plan", "Growth"):
                    check(section in dom.all_text, "full: no %s section" % section)
                check(dom.elements.count("svg") >= 2, "full: growth charts missing")
            if name == "hostile":
                check("<script>console.error('xss-name')</script>" in dom.all_text,
                      "hostile: the package name is not shown as text")

        check_fleet(browser, binary, work, now)

        shot = os.path.join(work, "full.png")
        p, requests, console = chromium(browser, os.path.join(work, "full.html"), work,
                                        ["--screenshot=" + shot, "--window-size=1280,1400"])
        check(os.path.exists(shot), "screenshot not written: " + p.stderr[-300:])
        if os.path.exists(shot):
            colours, share = not_blank(shot)
            print("screenshot: %d colours, %.1f%% not background" % (colours, share * 100))
            check(colours >= 16 and share >= 0.02, "screenshot looks blank (%d colours, %.2f%%)"
                  % (colours, share * 100))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("FAILED: %d check(s)" % len(failures) if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
