#!/usr/bin/env python3
"""Every experiment command a chapter page prints works after the README's
steps: it goes through scripts/experiment (which builds what it runs), and
names a program this build can make. A page may run a program by its path
only under a tool (valgrind), after the scripts/experiment line that built
it.

Usage: check_experiment_commands.py SOURCE_ROOT BUILDDIR
"""
import pathlib
import re
import subprocess
import sys

COMMAND = re.compile(r"^\$ \./scripts/experiment (\S+)(?: --on (\S+))?(?: --mine)?(?: --|\s*#|$)")
BY_PATH = re.compile(r"^\$ (.*?)build/experiments/(\S+)")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    root, builddir = pathlib.Path(sys.argv[1]), sys.argv[2]
    listed = subprocess.run(["ninja", "-C", builddir, "-t", "targets", "all"],
                            capture_output=True, text=True, check=True).stdout
    targets = {line.split(":")[0] for line in listed.splitlines()}
    if not any(t.startswith("experiments/") for t in targets):
        print("skipped: this build makes no experiments (-Dexperiments=false)")
        return 77
    slugs = {p.name[:2]: p.name for p in (root / "solutions").iterdir() if p.is_dir()}
    problems, seen = [], 0
    for page in sorted((root / "book" / "src").glob("[01][0-9]-*.md")):
        built = set()
        for number, line in enumerate(page.read_text().splitlines(), 1):
            where = f"{page.name}:{number}"
            if match := COMMAND.match(line):
                seen += 1
                chapter, on = match.group(1).zfill(2), match.group(2)
                if chapter not in slugs:
                    problems.append(f"{where}: no chapter {match.group(1)}")
                    continue
                name = slugs[chapter] + (f"-on-{on.zfill(2)}" if on else "")
                if f"experiments/{name}" not in targets:
                    problems.append(f"{where}: scripts/experiment would find no program "
                                    f"experiments/{name} to build")
                built.add(name)
            elif match := BY_PATH.match(line):
                tool, program = match.groups()
                if not tool.strip():
                    problems.append(f"{where}: runs build/experiments/{program} by its path, "
                                    "which the README's first steps do not build; "
                                    "use ./scripts/experiment")
                elif program not in built:
                    problems.append(f"{where}: runs build/experiments/{program} under "
                                    f"{tool.split()[0]} before any scripts/experiment line "
                                    "built it")
    for problem in problems:
        print(f"FAIL: {problem}")
    if not seen:
        print("FAIL: no page prints a scripts/experiment command")
        return 1
    if problems:
        return 1
    print(f"ok: {seen} experiment commands on the chapter pages name programs this build makes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
