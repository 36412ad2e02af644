#!/usr/bin/env python3
"""The instructor page's table of points per chapter is the one the grader
reads from the test sources (`grader --points`).

Usage: check_points.py GRADER BUILDDIR PAGE
"""
import subprocess
import sys


def table(lines):
    return [line.strip() for line in lines if line.startswith("| ")]


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    grader, builddir, page = sys.argv[1:]
    printed = subprocess.run([grader, "--builddir", builddir, "--points"], capture_output=True,
                             text=True, check=True).stdout.splitlines()
    with open(page) as f:
        text = f.read().split("<!-- points:", 1)
    if len(text) != 2:
        print(f"FAIL: {page} has no '<!-- points:' table")
        return 1
    written = table(text[1].split("\n\n", 1)[0].splitlines())
    if written != table(printed):
        print(f"FAIL: the table in {page} is out of date; `grader --points` prints:")
        print("\n".join(printed))
        return 1
    print(f"ok: {page} shows the points the grader reads from the test sources")
    return 0


if __name__ == "__main__":
    sys.exit(main())
