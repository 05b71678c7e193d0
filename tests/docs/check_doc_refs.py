#!/usr/bin/env python3
"""Checks that every place the tree cites a page of its documentation
resolves: the page exists, and so does the part of it that is cited.

What counts as a citation (in code, comments, scripts and pages alike):
  docs/model.md                         the file must exist (any path
                                        DIR/.../NAME.md whose first folder
                                        exists in the tree)
  docs/model.md#derived-status          a heading with that GitHub anchor
  docs/model.md section 3               a heading numbered "3." (also
  docs/model.md sections 1 and 2        `docs/model.md`, section 3)
  docs/model.md rule 8, rules 2, 4, 6   an item "8. " of a list in the
                                        section headed "Rules"
  docs/formats.md, "The cache format"   a heading holding that text (also
  docs/cli.md: "inspect"                after a section number)
  [text](cli.md#anchor), [text](#anchor) a Markdown link, from the page's folder
Files under build folders, .git and tests/data/ are not read (tests/data/
holds the planted tree the self-test checks).

Usage: check_doc_refs.py ROOT [--expect-broken N]
Exit 0 when every citation resolves (or exactly N do not, with
--expect-broken); 1 otherwise, listing each as FILE:LINE: the problem."""
import os
import re
import sys

READ = (".md", ".h", ".cc", ".py", ".sh", ".txt", ".1", ".cmake", ".proto", ".fish", ".zsh",
        ".bash")
SKIP_DIRS = (".git", "tests/data")
PAGE = r"((?:[A-Za-z0-9_-]+/)+[A-Za-z0-9_.-]+\.md)"
CITE = re.compile(PAGE + r"(#[A-Za-z0-9_-]+)?"
                  r"(?:`?['\"]?\)?[,:]?\s*\(?(?:(sections?|rules?)\s+"
                  r"(\d+(?:(?:\s*,\s*|\s+and\s+)\d+)*))?)?"
                  r"(?:,?\s*\"([^\"\n]+)\")?")
LINK = re.compile(r"\]\(([A-Za-z0-9_./-]+\.md)?(#[A-Za-z0-9_-]+)?\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
NUMBERED = re.compile(r"^(\d+)\.\s")


def anchor(title):
    """GitHub's anchor of a heading."""
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


class Page:
    def __init__(self, path):
        self.titles, self.rules = [], set()
        section, fenced = None, False
        for line in open(path, encoding="utf-8", errors="replace"):
            if line.startswith("```"):
                fenced = not fenced
                continue
            m = None if fenced else HEADING.match(line)
            if m:
                self.titles.append(m.group(1))
                section = m.group(1).strip().lower()
                continue
            n = NUMBERED.match(line)
            if n and section == "rules":
                self.rules.add(int(n.group(1)))
        self.anchors = {anchor(t) for t in self.titles}
        self.numbers = {int(m.group(1)) for t in self.titles
                        if (m := re.match(r"(\d+)\.", t))}


def cited_problems(root, pages, rel, number, target, frag, kind, numbers, title):
    path = os.path.normpath(os.path.join(root, target))
    if not os.path.isfile(path):
        return [f"{rel}:{number}: {target} does not exist"]
    if path not in pages:
        pages[path] = Page(path)
    page = pages[path]
    problems = []
    if frag and frag[1:] not in page.anchors:
        problems.append(f"{rel}:{number}: {target}{frag}: no heading has that anchor")
    for n in (int(x) for x in re.findall(r"\d+", numbers or "")):
        if kind.startswith("section") and n not in page.numbers:
            problems.append(f"{rel}:{number}: {target} section {n}: no heading numbered {n}.")
        if kind.startswith("rule") and n not in page.rules:
            problems.append(f"{rel}:{number}: {target} rule {n}: no item {n}. under \"Rules\"")
    if title and not any(title.lower() in t.lower() for t in page.titles):
        problems.append(f"{rel}:{number}: {target}, \"{title}\": no heading holds that text")
    return problems


def broken(root):
    root = os.path.abspath(root)
    top = {d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))}
    pages, found = {}, []
    for dirpath, dirs, files in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        dirs[:] = sorted(d for d in dirs
                         if not d.startswith("build") and
                         os.path.normpath(os.path.join(rel_dir, d)) not in SKIP_DIRS)
        for name in sorted(files):
            if not (name.endswith(READ) or name == "CMakeLists.txt"):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    for m in CITE.finditer(line):
                        target = m.group(1)
                        if target.split("/")[0] not in top or line[:m.start()].endswith(("](", "/")):
                            continue
                        found += cited_problems(root, pages, rel, number, target, *m.groups()[1:])
                    if name.endswith(".md"):
                        for m in LINK.finditer(line):
                            if not m.group(1) and not m.group(2):
                                continue
                            target = os.path.relpath(os.path.normpath(
                                os.path.join(os.path.dirname(rel), m.group(1) or name)))
                            if target.startswith(".."):
                                continue
                            found += cited_problems(root, pages, rel, number, target,
                                                    m.group(2), None, None, None)
    return found


def main():
    args = sys.argv[1:]
    expect = None
    if "--expect-broken" in args:
        i = args.index("--expect-broken")
        expect = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    problems = broken(args[0])
    for p in problems:
        print(p)
    if expect is not None:
        if len(problems) != expect:
            print(f"expected {expect} broken citations, found {len(problems)}")
            return 1
        return 0
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
