#!/usr/bin/env python3
"""Tests of the student's scripts: hint, status, experiment, and the
scripts/grade wrapper (its --watch, its --help, and the --json and --grades
it adds).

Each runs the real script, copied into a small course tree made in a
temporary directory (a meson.build with two chapters, starter files with
stubs, hint ladders, a fake build directory whose "grader" records its
arguments), so that nothing here depends on, or touches, the real build.

Usage: check_tools.py SOURCE_ROOT
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

SOURCE = Path(sys.argv.pop(1)).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]

LADDER = """<!-- a comment that is not a section -->

### `{a}`

**Goal:** after it, you can explain {a}.

<details>
<summary>Hint 1: a nudge</summary>

Nudge for {a}.

</details>

<details>
<summary>Hint 2: the rule</summary>

The rule of {a}.

</details>

### `{b}`

**Goal:** after it, you can explain {b}.

<details>
<summary>Hint 1: a nudge</summary>

Nudge for {b}.

</details>
"""


class Course:
    """A throwaway course tree with the real scripts in it."""

    def __init__(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = Path(self.dir.name)
        (self.root / "scripts").mkdir()
        for name in ("coursekit.py", "hint", "status", "experiment", "grade"):
            shutil.copy2(SOURCE / "scripts" / name, self.root / "scripts" / name)
        (self.root / "meson.build").write_text(
            "course_chapters = [\n  '01-alpha',\n  '02-beta',\n]\n")
        (self.root / "book" / "hints").mkdir(parents=True)
        (self.root / "book/hints/01-alpha.md").write_text(LADDER.format(a="first", b="second"))
        (self.root / "book/hints/02-beta.md").write_text(LADDER.format(a="third", b="fourth"))
        self.stub("01-alpha", "a.hpp", '1 of chapter 01 (first, in a.hpp)')
        self.stub("01-alpha", "b.cpp", '2 of chapter 01 (second, in b.cpp)')
        self.stub("02-beta", "c.hpp", '1 of chapter 02 (third: part, in c.hpp)')
        self.stub("02-beta", "d.hpp", '2 of chapter 02 (fourth, in d.hpp)')

    def stub(self, slug, name, message):
        path = self.root / "chapters" / slug / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'void f() {{\n  throw Todo("{message}");\n}}\n')

    def finish(self, slug, name):
        (self.root / "chapters" / slug / name).write_text("void f() {}\n")

    def run(self, script, *args, timeout=60):
        return subprocess.run([str(self.root / "scripts" / script), *args], cwd=self.root,
                              capture_output=True, text=True, timeout=timeout)

    def fake_build(self):
        """build/ with a ninja file whose grader is a script that records its
        arguments in build/grader-calls, one call a line."""
        build = self.root / "build"
        (build / "tools/grader").mkdir(parents=True, exist_ok=True)
        (build / "build.ninja").write_text("build tools/grader/grader: phony\n")
        grader = build / "tools/grader/grader"
        grader.write_text('#!/bin/sh\necho "$*" >> "$(dirname "$0")/../../grader-calls"\n')
        grader.chmod(0o755)
        return build

    def grader_calls(self):
        path = self.root / "build" / "grader-calls"
        return path.read_text().splitlines() if path.exists() else []


class HintTest(unittest.TestCase):
    def setUp(self):
        self.course = Course()
        self.addCleanup(self.course.dir.cleanup)

    def test_climbs_one_rung_per_call_and_stays_at_the_rule(self):
        first = self.course.run("hint", "1", "first")
        self.assertEqual(first.returncode, 0, first.stderr)
        self.assertIn("Nudge for first", first.stdout)
        self.assertNotIn("The rule of first", first.stdout)
        second = self.course.run("hint", "01", "first")
        self.assertIn("The rule of first", second.stdout)
        self.assertNotIn("Nudge for first", second.stdout)
        third = self.course.run("hint", "01-alpha", "first")
        self.assertIn("The rule of first", third.stdout)
        self.assertIn("top of the ladder", third.stdout)

    def test_without_an_exercise_picks_the_first_with_stubs_left(self):
        self.course.finish("01-alpha", "a.hpp")
        result = self.course.run("hint", "1")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("second", result.stdout)
        self.assertIn("Nudge for second", result.stdout)

    def test_every_exercise_done(self):
        self.course.finish("01-alpha", "a.hpp")
        self.course.finish("01-alpha", "b.cpp")
        result = self.course.run("hint", "1")
        self.assertEqual(result.returncode, 0)
        self.assertIn("every exercise of 01-alpha is done", result.stdout)

    def test_reset_starts_again(self):
        self.course.run("hint", "1", "first")
        self.course.run("hint", "1", "first", "--reset")
        self.assertIn("Nudge for first", self.course.run("hint", "1", "first").stdout)

    def test_bad_input_is_a_clear_error(self):
        for args, message in [(("7",), "no chapter '7'"),
                              (("1", "nope"), "no exercise 'nope': its exercises are first, second"),
                              (("x1",), "no chapter 'x1'")]:
            result = self.course.run("hint", *args)
            self.assertEqual(result.returncode, 2, args)
            self.assertIn(message, result.stderr)

    def test_a_chapter_without_a_hint_file(self):
        (self.course.root / "book/hints/02-beta.md").unlink()
        result = self.course.run("hint", "2")
        self.assertEqual(result.returncode, 2)
        self.assertIn("has no hints yet", result.stderr)

    def test_a_damaged_progress_file_starts_over(self):
        (self.course.root / "build").mkdir()
        (self.course.root / "build/hints-seen.json").write_text("{not json")
        result = self.course.run("hint", "1", "first")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("Nudge for first", result.stdout)


class StatusTest(unittest.TestCase):
    def setUp(self):
        self.course = Course()
        self.addCleanup(self.course.dir.cleanup)

    def table(self, output):
        return {line.split()[0]: line.split()[1:] for line in output.splitlines()
                if line[:2].isdigit()}

    def test_counts_exercises_done_from_the_stubs_left(self):
        self.course.finish("02-beta", "d.hpp")
        result = self.course.run("status")
        self.assertEqual(result.returncode, 0, result.stderr)
        rows = self.table(result.stdout)
        self.assertEqual(rows["01-alpha"][:3], ["0", "of", "2"])
        self.assertEqual(rows["02-beta"][:3], ["1", "of", "2"])
        self.assertIn("no grade yet", result.stdout)
        self.assertEqual(rows["01-alpha"][-1], "-")
        self.assertIn("next: exercise 'first' in chapters/01-alpha", result.stdout)

    def write_record(self, chapters):
        (self.course.root / "build").mkdir(exist_ok=True)
        (self.course.root / "build/grades.json").write_text(json.dumps({"chapters": chapters}))

    def test_shows_each_chapters_last_grade(self):
        self.write_record({
            "01-alpha": {"score": 10, "max_score": 10, "graded_at": "2026-12-01 10:00",
                         "sanitizer": "none", "repeat": 1},
            "02-beta": {"score": 3, "max_score": 8, "graded_at": "2026-12-01 11:00",
                        "sanitizer": "thread", "repeat": 1}})
        result = self.course.run("status")
        self.assertEqual(result.returncode, 0, result.stderr)
        rows = self.table(result.stdout)
        self.assertEqual(rows["01-alpha"][3:], ["10/10", "2026-12-01", "10:00"])
        self.assertEqual(rows["02-beta"][3:], ["3/8", "(thread", "sanitizer)", "2026-12-01",
                                               "11:00"])
        self.assertIn("./scripts/grade grades 02-beta next (the first without full marks)",
                      result.stdout)

    def test_a_chapter_never_graded_shows_no_points(self):
        self.write_record({"01-alpha": {"score": 7, "max_score": 10}})
        result = self.course.run("status")
        rows = self.table(result.stdout)
        self.assertEqual(rows["01-alpha"][-1], "7/10")
        self.assertEqual(rows["02-beta"][-1], "-")
        self.assertIn("./scripts/grade grades 01-alpha next", result.stdout)

    def test_one_grader_file_on_request(self):
        (self.course.root / "build").mkdir()
        (self.course.root / "build/run.json").write_text(json.dumps({
            "flavour": "chapters", "sanitizer": "none", "repeat": 1, "complete": True,
            "score": 7, "max_score": 10,
            "chapters": [{"chapter": "02-beta", "score": 7, "max_score": 10}], "tests": []}))
        rows = self.table(self.course.run("status", "--grade", "build/run.json").stdout)
        self.assertEqual(rows["02-beta"][-1], "7/10")
        self.assertEqual(rows["01-alpha"][-1], "-")

    def test_a_grade_of_the_solutions_is_not_shown_as_yours(self):
        (self.course.root / "build").mkdir()
        (self.course.root / "build/last-grade.json").write_text(json.dumps({
            "flavour": "solutions", "complete": True, "score": 10, "max_score": 10,
            "chapters": [{"chapter": "01-alpha", "score": 10, "max_score": 10}], "tests": []}))
        result = self.course.run("status", "--grade", "build/last-grade.json")
        self.assertEqual(self.table(result.stdout)["01-alpha"][-1], "-")
        self.assertIn("not your code", result.stdout)

    def test_a_damaged_grade_file_is_a_clear_error(self):
        self.write_record(3)
        result = self.course.run("status")
        self.assertEqual(result.returncode, 2)
        self.assertIn("is not the grader's record of grades", result.stderr)
        missing = self.course.run("status", "--grade", "nowhere.json")
        self.assertEqual(missing.returncode, 2)
        self.assertIn("no file nowhere.json", missing.stderr)

    def test_all_done(self):
        for slug, name in [("01-alpha", "a.hpp"), ("01-alpha", "b.cpp"),
                           ("02-beta", "c.hpp"), ("02-beta", "d.hpp")]:
            self.course.finish(slug, name)
        self.assertIn("every exercise is done", self.course.run("status").stdout)


class ExperimentTest(unittest.TestCase):
    def setUp(self):
        self.course = Course()
        self.addCleanup(self.course.dir.cleanup)

    def test_bad_chapter(self):
        result = self.course.run("experiment", "9")
        self.assertEqual(result.returncode, 2)
        self.assertIn("no chapter '9'", result.stderr)

    def test_unconfigured_build(self):
        result = self.course.run("experiment", "1", "--mine")
        self.assertEqual(result.returncode, 2)
        self.assertIn("run ./scripts/setup first", result.stderr)

    def test_runs_the_chapter_program_with_its_arguments(self):
        build = self.course.fake_build()
        (build / "experiments").mkdir()
        for name in ("01-alpha", "01-alpha-mine"):
            program = build / "experiments" / name
            program.write_text(f'#!/bin/sh\necho "{name} ran with: $*"\n')
            program.chmod(0o755)
        (build / "build.ninja").write_text(
            "build experiments/01-alpha: phony\nbuild experiments/01-alpha-mine: phony\n")
        solution = self.course.run("experiment", "1", "--", "--tasks", "5")
        self.assertEqual(solution.returncode, 0, solution.stderr)
        self.assertIn("01-alpha ran with: --tasks 5", solution.stdout)
        unfinished = self.course.run("experiment", "1", "--mine")
        self.assertEqual(unfinished.returncode, 2)
        self.assertIn("still has exercises to do (first, second)", unfinished.stderr)
        self.assertNotIn("building", unfinished.stderr)   # said before any build
        anyway = self.course.run("experiment", "1", "--mine", "--anyway")
        self.assertIn("01-alpha-mine ran with:", anyway.stdout)
        self.course.finish("01-alpha", "a.hpp")
        self.course.finish("01-alpha", "b.cpp")
        mine = self.course.run("experiment", "1", "--mine")
        self.assertIn("01-alpha-mine ran with:", mine.stdout)
        missing = self.course.run("experiment", "2")
        self.assertEqual(missing.returncode, 2)
        self.assertIn("no target experiments/02-beta", missing.stderr)


class GradeWrapperTest(unittest.TestCase):
    def setUp(self):
        self.course = Course()
        self.addCleanup(self.course.dir.cleanup)

    def test_not_configured(self):
        result = self.course.run("grade", "1")
        self.assertEqual(result.returncode, 2)
        self.assertIn("run ./scripts/setup first", result.stderr)

    def test_passes_the_arguments_and_asks_for_the_result_files(self):
        build = self.course.fake_build()
        result = self.course.run("grade", "1", "--filter", "two words")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.course.grader_calls(),
                         [f"--builddir {build} 1 --filter two words --json {build}/last-grade.json"
                          f" --grades {build}/grades.json"])

    def test_keeps_the_users_result_files(self):
        build = self.course.fake_build()
        self.course.run("grade", "--json", "mine.json", "2")
        self.course.run("grade", "--json=other.json", "--grades", "g.json")
        self.assertEqual(self.course.grader_calls(),
                         [f"--builddir {build} --json mine.json 2 --grades {build}/grades.json",
                          f"--builddir {build} --json=other.json --grades g.json"])

    def test_help_lists_the_wrappers_option_too(self):
        build = self.course.fake_build()
        result = self.course.run("grade", "--help")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.course.grader_calls(), ["--help"])
        self.assertIn("--watch", result.stdout)

    def wait_for_calls(self, n):
        """The grader's calls so far, once there are n (or 30 s have passed)."""
        deadline = time.monotonic() + 30
        while len(self.course.grader_calls()) < n and time.monotonic() < deadline:
            time.sleep(0.05)   # polls a file another process writes
        return self.course.grader_calls()

    def watch(self, *args, save):
        """Starts scripts/grade --watch ARGS, then saves file `save` (slug,
        name) once it has graded: the grader's two calls."""
        watcher = subprocess.Popen([str(self.course.root / "scripts/grade"), "--watch", *args],
                                   cwd=self.course.root, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, start_new_session=True)
        try:
            self.assertEqual(len(self.wait_for_calls(1)), 1)
            self.course.finish(*save)
            calls = self.wait_for_calls(2)
            self.assertEqual(len(calls), 2)
            return calls
        finally:
            os.killpg(watcher.pid, signal.SIGTERM)
            watcher.communicate(timeout=10)

    def test_watch_grades_again_when_a_chapter_file_changes(self):
        build = self.course.fake_build()
        calls = self.watch("1", save=("01-alpha", "a.hpp"))
        self.assertEqual(calls[1], f"--builddir {build} 1 --brief --stop-at-failure --json "
                                   f"{build}/last-grade.json --grades {build}/grades.json")

    def test_watch_without_a_chapter_grades_the_chapter_whose_file_changed(self):
        build = self.course.fake_build()
        calls = self.watch("--filter", "x", save=("02-beta", "c.hpp"))
        self.assertEqual(calls[0], f"--builddir {build} --filter x --brief --stop-at-failure "
                                   f"--json {build}/last-grade.json --grades {build}/grades.json")
        self.assertEqual(calls[1], f"--builddir {build} --filter x 02 --brief --stop-at-failure "
                                   f"--json {build}/last-grade.json --grades {build}/grades.json")


if __name__ == "__main__":
    unittest.main(verbosity=2)
