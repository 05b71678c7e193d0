#!/usr/bin/env python3
"""Checks that docs/cli.md documents every subcommand and every flag the
program has, as the program's own --help lists them.

The program's commands are found by walking `BINARY --help`, then
`BINARY CMD --help` for every name under "Subcommands:", and so on down
(query history, record deploy, config diff, ...). Each command's flags are
the option lines of its help (`-h, --help` aside); a flag with several names
(`-o,--output`) counts as documented when one of them is.

The page names a command in a heading holding a code span that starts with
`zarf-state`, followed by the command's words; a word may list alternatives
(`zarf-state record deploy|remove` names both). A flag counts as documented
for a command when it appears, as `--name` or `-x`, in the section of a
heading that names the command or one of its parents (a section runs to the
next heading of the same or a higher level), or in the section headed
"Global flags". So every command needs its own heading, and every flag must
be written out where the command is.

Usage: check_cli_doc.py BINARY CLI_MD [--plant "CMD... --FLAG" | --plant "CMD..."]...
Exit 0 when nothing is missing; 1 otherwise, listing each. With --plant (the
self-test), the page is first changed in memory: a "CMD --FLAG" plant deletes
every mention of --FLAG, a "CMD" plant deletes the headings naming CMD; exit 0
when the check then reports exactly one new problem per plant, for that
command, and nothing else new."""
import re
import subprocess
import sys

HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
CODE_SPAN = re.compile(r"`(zarf-state(?:\s[^`]*)?)`")
WORD = re.compile(r"^[a-z][a-z0-9-]*(\|[a-z][a-z0-9-]*)*$")
SECTION = re.compile(r"^([A-Za-z][A-Za-z ]*):\s*$")
FLAG = re.compile(r"(?<![\w-])(--?[A-Za-z0-9][\w-]*)")


def help_text(binary, path):
    run = subprocess.run([binary, *path, "--help"], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, check=False)
    if run.returncode != 0:
        sys.exit(f"{' '.join([binary, *path, '--help'])}: exit {run.returncode}\n{run.stderr}")
    return run.stdout


def parse_help(text):
    """(subcommand names, flags) of one command's --help."""
    subcommands, flags = [], set()
    section = None
    for line in text.splitlines():
        m = SECTION.match(line)
        if m:
            section = m.group(1)
            continue
        if not line.startswith("  ") or section is None:
            continue
        entry = line.strip().split()
        if not entry:
            continue
        if section == "Subcommands":
            subcommands.append(entry[0])
        elif entry[0].startswith("-"):
            # "-f, --filename string ..." (one name per word, each but the
            # last ending in a comma) or "--quiet,--no-progress{false}"
            names = []
            for word in entry:
                names += [n for n in re.sub(r"\{[^}]*\}", "", word).split(",") if n]
                if not word.endswith(","):
                    break
            if "--help" not in names:
                flags.add(tuple(names))
    return subcommands, flags


def program_commands(binary):
    """{path tuple: flags} for the program and every subcommand below it."""
    found = {}
    todo = [()]
    while todo:
        path = todo.pop()
        subcommands, flags = parse_help(help_text(binary, path))
        found[path] = flags
        todo.extend(path + (name,) for name in subcommands)
    return found


def heading_paths(title):
    """The command paths a heading names (none when it names no command)."""
    paths = []
    for span in CODE_SPAN.findall(title):
        choices = []
        for token in span.split()[1:]:
            if not WORD.match(token):
                break
            choices.append(token.split("|"))
        expanded = [()]
        for options in choices:
            expanded = [p + (o,) for p in expanded for o in options]
        paths.extend(expanded)
    return paths


def page_sections(text):
    """[(heading title, set of command paths it names, section text)]."""
    lines = text.splitlines()
    heads = []
    fenced = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        m = None if fenced else HEADING.match(line)
        if m:
            heads.append((i, len(m.group(1)), m.group(2)))
    sections = []
    for n, (start, level, title) in enumerate(heads):
        end = len(lines)
        for later, later_level, _ in heads[n + 1:]:
            if later_level <= level:
                end = later
                break
        sections.append((title, set(heading_paths(title)), "\n".join(lines[start:end])))
    return sections


def missing(commands, text):
    sections = page_sections(text)
    global_text = "\n".join(text for title, _, text in sections
                            if title.strip().lower() == "global flags")
    problems = []
    for path in sorted(commands):
        name = " ".join(("zarf-state",) + path)
        if path and not any(path in named for _, named, _ in sections):
            problems.append(f"{name}: no heading names this command")
            continue
        texts = [global_text] + [text for _, named, text in sections
                                 if any(path[:k] in named for k in range(1, len(path) + 1))]
        documented = set(FLAG.findall("\n".join(texts)))
        for names in sorted(commands[path]):
            if documented.isdisjoint(names):
                where = "Global flags" if not path else f"the section of `{name}`"
                flag = max(names, key=len)
                problems.append(f"{name}: flag {flag} is not in {where}")
    return problems


def planted(text, plant):
    """`text` with what `plant` names taken out, and the problem it must cause."""
    words = plant.split()
    path = tuple(w for w in words if not w.startswith("-"))
    name = " ".join(("zarf-state",) + path)
    flag = [w for w in words if w.startswith("-")]
    if flag:
        pattern = re.compile(r"(?<![\w-])" + re.escape(flag[0]) + r"(?![\w-])")
        return pattern.sub("", text), f"{name}: flag {flag[0]} "
    lines = [line for line in text.splitlines()
             if not (HEADING.match(line) and path in heading_paths(line))]
    return "\n".join(lines), f"{name}: no heading names this command"


def main():
    args = sys.argv[1:]
    plants = []
    while "--plant" in args:
        i = args.index("--plant")
        plants.append(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    commands = program_commands(args[0])
    text = open(args[1], encoding="utf-8").read()
    problems = missing(commands, text)
    if not plants:
        for p in problems:
            print(f"{args[1]}: {p}")
        return 1 if problems else 0
    expected = []
    for plant in plants:
        text, problem = planted(text, plant)
        expected.append(problem)
    new = [p for p in missing(commands, text) if p not in problems]
    caught = [e for e in expected if any(p.startswith(e) for p in new)]
    others = [p for p in new if not any(p.startswith(e) for e in expected)]
    for p in new:
        print(f"planted: {p}")
    if len(caught) != len(expected) or others:
        print(f"expected exactly: {expected}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
