#!/usr/bin/env python3
"""Every chapter page states its tests and points as the grader counts them.

Each page book/src/NN-slug.md says once "The tests in `tests/NN-slug/`
(T tests, P points)", and any other count of points it gives ("a score
out of P points") is the same P: the numbers `grader --points` reads from
the test sources. A page with a stale count, or none, fails.

Usage: check_counts.py GRADER BUILDDIR BOOK_SRC
"""
import os
import re
import subprocess
import sys


def counts(grader, builddir):
    printed = subprocess.run([grader, "--builddir", builddir, "--points"], capture_output=True,
                             text=True, check=True).stdout
    rows = {}
    for line in printed.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 3 and re.fullmatch(r"\d\d-[a-z-]+", cells[0]):
            rows[cells[0]] = (int(cells[1]), int(cells[2]))
    return rows


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    grader, builddir, book = sys.argv[1:]
    failures = 0
    for chapter, (tests, points) in sorted(counts(grader, builddir).items()):
        page = os.path.join(book, chapter + ".md")
        with open(page) as f:
            text = f.read()
        stated = re.findall(r"The\s+tests\s+in\s+`tests/" + re.escape(chapter) +
                            r"/`\s+\((\d+)\s+tests,\s+(\d+)\s+points\)", text)
        if len(stated) != 1:
            print(f"FAIL: {page} must say once: The tests in `tests/{chapter}/` ({tests} tests, {points} points)")
            failures += 1
        elif stated[0] != (str(tests), str(points)):
            print(f"FAIL: {page} says ({stated[0][0]} tests, {stated[0][1]} points); "
                  f"the grader counts ({tests} tests, {points} points)")
            failures += 1
        for other in re.findall(r"out\s+of\s+(\d+)\s+points", text):
            if int(other) != points:
                print(f"FAIL: {page} says 'out of {other} points'; the grader counts {points}")
                failures += 1
    if failures:
        return 1
    print("ok: every chapter page states the tests and points the grader counts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
