#!/usr/bin/env python3
"""The grader as a student meets it, through scripts/grade's --grades: on a
small made-up course of two chapters whose test binaries are copies of the
fixture, checks that a grade naming no chapter grades the chapter the
student is on (the first without full marks at its last grade; the first
on a fresh start) and says so; that every chapter's last grade is kept;
that while a chapter's own exercises are not started its regressions are
one line, and while its files hold a stub they are neither built nor run; that a test binary that does not compile is one line with its
errors; that --brief shows one failure of each kind in full; that a plain
grade says once how to grade as the instructor does (every sanitizer,
earlier chapters counted); and that none of it changes a score.

Usage: check_student_grading.py GRADER FIXTURE
"""

import json
import os
import subprocess
import sys
import tempfile

from tally import check, summary

CHAPTERS = ["01-alpha", "02-beta"]

# Each chapter's test source: test names the fixture binary holds.
TESTS = {
    "01-alpha": 'TEST_CASE("passes" * POINTS(1)) {}\n',
    "02-beta": ('TEST_CASE("throws a Todo" * POINTS(2)) {}\n'
                'TEST_CASE("passes" * POINTS(1)) {}\n'
                'TEST_CASE("fails a check" * POINTS(2)) {}\n'
                'TEST_CASE("throws an exception" * POINTS(1)) {}\n'),
}


class Course:
    """A source tree and a build directory the grader can work in: a
    manifest, and a build.ninja whose test targets copy the fixture (or,
    when broken, fail like a compiler)."""

    def __init__(self, root, fixture):
        self.root = root
        self.build = os.path.join(root, "build")
        self.grades = os.path.join(self.build, "grades.json")
        self.fixture = fixture
        os.makedirs(self.build)
        with open(os.path.join(self.build, "course-manifest.txt"), "w") as f:
            f.write(f"source_root {root}\nchapters {' '.join(CHAPTERS)}\n")
        for chapter in CHAPTERS:
            os.makedirs(os.path.join(root, "tests", chapter))
            with open(os.path.join(root, "tests", chapter, "a_test.cpp"), "w") as f:
                f.write(TESTS[chapter])
            os.makedirs(os.path.join(root, "chapters", chapter, "rt"))
            with open(os.path.join(root, "chapters", chapter, "rt", "rt.hpp"), "w") as f:
                f.write("#pragma once\n")
        self.write_ninja(broken=())

    def write_ninja(self, broken):
        rules = ("rule copy\n  command = cp $in $out\n"
                 "rule fail\n  command = echo '../chapters/x.cpp:3:1: error: expected a brace'"
                 " && false\n")
        targets = ["tests/chapters-01-tests-01", "tests/chapters-02-tests-01",
                   "tests/chapters-02-tests-02", "tests/solutions-01-tests-01",
                   "tests/solutions-02-tests-01", "tests/solutions-02-tests-02"]
        edges = "".join(f"build {t}: fail\n" if t in broken else f"build {t}: copy {self.fixture}\n"
                        for t in targets)
        with open(os.path.join(self.build, "build.ninja"), "w") as f:
            f.write(rules + edges)
        for t in targets:  # rebuilt on every grade, as a student's would be
            path = os.path.join(self.build, t)
            if os.path.exists(path):
                os.remove(path)

    def grade(self, *args):
        command = [GRADER, "--builddir", self.build, "--grades", self.grades,
                   "--json", os.path.join(self.build, "last.json"), "--timeout", "5", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=300)

    def record(self):
        try:
            with open(self.grades) as f:
                return json.load(f)["chapters"]
        except (OSError, ValueError, KeyError):
            return None

    def results(self):
        with open(os.path.join(self.build, "last.json")) as f:
            return json.load(f)


def first_line(result):
    return (result.stdout.splitlines() or [""])[0]


def check_fresh_start(course):
    result = course.grade()
    check(first_line(result).startswith("Grading 01-alpha: no chapter graded yet"),
          "on a fresh start, a grade naming no chapter grades the first, and says so",
          first_line(result))
    check(result.stdout.rstrip().splitlines()[-1] == "Score: 1/1", "it grades that chapter only",
          result.stdout[-300:])
    record = course.record()
    check(record is not None and record.get("01-alpha", {}).get("score") == 1
          and record["01-alpha"].get("max_score") == 1 and record["01-alpha"].get("graded_at"),
          "the chapter's grade is kept in the --grades file", repr(record))


def check_next_chapter(course):
    result = course.grade()
    check(first_line(result).startswith("Grading 02-beta: the first chapter without full marks"),
          "once a chapter has full marks, the next grade is of the chapter after it",
          first_line(result))
    record = course.record() or {}
    check(set(record) == set(CHAPTERS), "the record keeps every chapter's last grade",
          repr(record))
    beta = record.get("02-beta", {})
    check(beta.get("score") == 1 and beta.get("max_score") == 6 and beta.get("not_started") == 1,
          "the record holds the chapter's score and how many tests were not started",
          repr(beta))
    again = course.grade()
    check(first_line(again).startswith("Grading 02-beta: the first chapter without full marks "
                                       "(1/6 on "),
          "a chapter without full marks stays the one graded, with its last score",
          first_line(again))
    return result


def check_folded_regressions(result, course):
    out = result.stdout
    lines = [line for line in out.splitlines() if line.startswith("  02-beta")]
    folded = [line for line in lines if " regressions " in line]
    check(len(folded) == 1 and "1 pass" in folded[0],
          "while the chapter's own exercises are not started, its regressions are one line",
          out)
    check(not any("(regression, chapter 01-alpha" in line for line in lines),
          "no regression gets a line of its own then", out)
    check("02-beta: 1/6 (earlier chapters' tests, not counted: 1 of 1 pass)" in out,
          "the chapter's score line still counts the regressions", out)
    tests = course.results()["tests"]
    check(len(tests) == 5 and sum(t["regression"] for t in tests) == 1,
          "the JSON file still holds every test, the regression too", repr(tests)[:400])
    every = course.grade("2", "--every-test")
    check("(regression, chapter 01-alpha, not counted) passes" in every.stdout
          and "  02-beta        not started" in every.stdout and "throws a Todo" in every.stdout,
          "--every-test prints every test on its own line", every.stdout)
    check(every.stdout.rstrip().splitlines()[-1] == "Score: 1/6",
          "folding changes no score", every.stdout[-200:])


INSTRUCTOR_NOTE = "The instructor's grade also runs each test under ThreadSanitizer"


def check_instructor_note(result, chapters):
    """One line, once, naming the chapters graded and the options to use."""
    notes = [line for line in result.stdout.splitlines() if INSTRUCTOR_NOTE in line]
    check(len(notes) == 1 and notes[0].endswith(
              f"./scripts/grade {chapters} --sanitize all --count-regressions"),
          f"a plain grade of {chapters} says once how to grade as the instructor does",
          result.stdout[-800:])


def check_all_and_named(course):
    result = course.grade("--all")
    check_instructor_note(result, "1-2")
    check(not first_line(result).startswith("Grading") and "01-alpha: 1/1" in result.stdout
          and "02-beta: 1/6" in result.stdout and result.stdout.rstrip().endswith("Score: 2/7"),
          "--all grades every chapter", result.stdout[-600:])
    named = course.grade("1")
    check(not first_line(named).startswith("Grading") and
          named.stdout.rstrip().endswith("Score: 1/1"),
          "a named chapter is graded without a word about the choice", named.stdout[-300:])
    check_instructor_note(named, "1")
    clash = course.grade("1", "--all")
    check(clash.returncode == 2 and "--all" in clash.stderr, "--all with chapters is refused",
          clash.stderr)
    with open(course.grades) as f:
        before = f.read()
    reference = course.grade("--solutions")
    with open(course.grades) as f:
        after = f.read()
    check(reference.returncode == 1 and "01-alpha: 1/1" in reference.stdout
          and "02-beta" in reference.stdout and before == after,
          "--solutions grades every chapter and leaves the record alone",
          reference.stdout[-300:] + reference.stderr[-300:])
    check(INSTRUCTOR_NOTE not in reference.stdout,
          "grading the solutions says nothing about the instructor's grade", reference.stdout)


def check_brief(course):
    result = course.grade("2", "--brief", "--every-test")
    details = [line for line in result.stdout.splitlines() if line.startswith("      | ")]
    fail_lines = [line for line in result.stdout.splitlines() if "  fail  " in line]
    check(len(fail_lines) == 2 and any("answer == 2" in d for d in details)
          and not any("boom from the fixture" in d for d in details),
          "--brief shows what went wrong for the first failure of each kind only",
          result.stdout)


def check_not_compiling(course):
    course.write_ninja(broken=("tests/chapters-02-tests-02",))
    result = course.grade("2")
    lines = [line for line in result.stdout.splitlines() if "does not compile" in line]
    errors = [line for line in result.stdout.splitlines() if "expected a brace" in line]
    check(len(lines) == 1 and "4 tests" in lines[0] and "0/6" in lines[0] and len(errors) == 1,
          "a test binary that does not compile is one line, its errors shown once",
          result.stdout)
    check(len(errors) == 1 and "chapters/x.cpp:3:1" in errors[0] and "../chapters" not in errors[0],
          "a compile error names its file from the repository's root, not from build/",
          repr(errors))
    tests = [t for t in course.results()["tests"] if not t["regression"]]
    check(len(tests) == 4 and all(t["status"] == "does not compile" for t in tests),
          "the JSON file still has every test of it", repr(tests)[:300])
    record = course.record() or {}
    check(record.get("02-beta", {}).get("score") == 0, "a chapter that does not compile is kept "
          "as scoring 0", repr(record.get("02-beta")))
    course.write_ninja(broken=())


def check_deferred_regressions(course):
    """While the chapter's files hold a stub of its own, a student's grade
    neither builds nor runs the earlier chapters' tests: the regression's
    target is broken here, so building it would show."""
    header = os.path.join(course.root, "chapters", "02-beta", "rt", "rt.hpp")
    with open(header, "w") as f:
        f.write('#pragma once\ninline void beta() { throw Todo("1 of chapter 02 (beta, in rt/rt.hpp)"); }\n')
    course.write_ninja(broken=("tests/chapters-02-tests-01",))
    result = course.grade("2")
    lines = [line for line in result.stdout.splitlines() if " regressions " in line]
    check(len(lines) == 1 and "1 not built or run while this chapter has stubs "
          "(chapters/02-beta/rt/rt.hpp has one)" in lines[0] and
          "does not compile" not in result.stdout,
          "while the chapter has stubs, its regressions are neither built nor run, and it says so",
          result.stdout)
    tests = course.results()["tests"]
    check(len(tests) == 4 and not any(t["regression"] for t in tests) and
          result.stdout.rstrip().splitlines()[-1] == "Score: 1/6",
          "the chapter's own tests are graded as before", repr(tests)[:300] + result.stdout[-200:])
    every = course.grade("2", "--every-test")
    check("does not compile" in every.stdout, "--every-test builds the regressions all the same",
          every.stdout[-600:])
    course.write_ninja(broken=())
    with open(header, "w") as f:
        f.write("#pragma once\n")
    after = course.grade("2")
    check("(earlier chapters' tests, not counted: 1 of 1 pass)" in after.stdout,
          "once the stub is gone, the regressions run", after.stdout[-400:])


def check_damaged_record(course):
    with open(course.grades, "w") as f:
        f.write('{"chapters": 3}')
    result = course.grade()
    check(result.returncode == 2 and "is not a record of grades" in result.stderr,
          "a damaged record is a clear error", result.stderr)
    named = course.grade("1")
    check(named.returncode == 0 and (course.record() or {}).get("01-alpha", {}).get("score") == 1,
          "grading a named chapter replaces a damaged record", named.stderr)


GRADER = None


def main():
    global GRADER
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    GRADER, fixture = (os.path.abspath(p) for p in sys.argv[1:])
    with tempfile.TemporaryDirectory(prefix="check-student-grading-") as root:
        course = Course(os.path.join(root, "course"), fixture)
        check_fresh_start(course)
        result = check_next_chapter(course)
        check_folded_regressions(result, course)
        check_all_and_named(course)
        check_brief(course)
        check_not_compiling(course)
        check_deferred_regressions(course)
        check_damaged_record(course)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
