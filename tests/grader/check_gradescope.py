#!/usr/bin/env python3
"""The Gradescope bundle, end to end: builds it with scripts/gradescope (with
the example hidden tests), unpacks it into a folder laid out as Gradescope
lays out /autograder, runs setup.sh (which must prebuild the pristine copy
in the three modes the bundle grades in by default: plain, ThreadSanitizer,
AddressSanitizer), then run_autograder on a complete submission (every test
passing in all three modes, nothing configured again), on an untouched
starter and on an upload that is not the course at all, and checks each
results.json.

Usage: check_gradescope.py SOURCE_ROOT
"""

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile

from tally import check, summary

CHAPTER = "01-executor"
MODES = ("none", "thread", "address")  # the copy's build directories: build-<mode>


def unpack(bundle, into):
    """Like Gradescope: the zip's content becomes the source folder."""
    with zipfile.ZipFile(bundle) as z:
        for info in z.infolist():
            path = z.extract(info, into)
            mode = (info.external_attr >> 16) & 0o777
            if mode:
                os.chmod(path, mode)


def submission_from(source_root, where, solved):
    shutil.copytree(os.path.join(source_root, "chapters"), os.path.join(where, "chapters"))
    if not solved:
        return
    solution = os.path.join(source_root, "solutions", CHAPTER)
    student = os.path.join(where, "chapters", CHAPTER)
    for folder, _, files in os.walk(solution):
        for name in files:
            relative = os.path.relpath(os.path.join(folder, name), solution)
            if os.path.exists(os.path.join(student, relative)):
                shutil.copyfile(os.path.join(folder, name), os.path.join(student, relative))


def expected_points(autograder, source_root):
    """Chapter 01's points and test count, with the example's hidden tests,
    as the bundle's own grader reads them from the sources."""
    source = os.path.join(autograder, "source")
    table = subprocess.run([os.path.join(source, "build", "tools", "grader", "grader"),
                            "--builddir", os.path.join(source, "build"), "--points", "1"],
                           capture_output=True, text=True, check=True).stdout
    row = next(line for line in table.splitlines() if CHAPTER in line).split("|")
    points, count = int(row[3]), int(row[2])
    hidden = os.path.join(source_root, "tests", "grader", "hidden-example", CHAPTER)
    for name in os.listdir(hidden):
        with open(os.path.join(hidden, name)) as f:
            found = re.findall(r"\* POINTS\((\d+)\)", f.read())
        points += sum(int(p) for p in found)
        count += len(found)
    return points, count


def run_autograder(autograder, fill):
    """A fresh submission and results folder, then run_autograder."""
    for name in ("submission", "results"):
        shutil.rmtree(os.path.join(autograder, name), ignore_errors=True)
        os.makedirs(os.path.join(autograder, name))
    fill(os.path.join(autograder, "submission"))
    shutil.copy(os.path.join(autograder, "source", "run_autograder"),
                os.path.join(autograder, "run_autograder"))
    env = dict(os.environ, AUTOGRADER_ROOT=autograder)
    finished = subprocess.run([os.path.join(autograder, "run_autograder")], env=env,
                              capture_output=True, text=True, errors="replace", timeout=1800)
    try:
        with open(os.path.join(autograder, "results", "results.json")) as f:
            return finished, json.load(f)
    except (OSError, ValueError) as e:
        return finished, {"error": str(e)}


def check_committed_tree(source_root, scratch):
    """An instructor who tried the exercises in their clone ships the starter,
    not their answers: the bundle is HEAD's tree, and the edits are named."""
    clone = os.path.join(scratch, "clone")
    if subprocess.run(["git", "clone", "-q", "--depth", "1", "file://" + source_root, clone],
                      capture_output=True).returncode != 0:
        check(False, "a clone of the course to edit (git clone)")
        return
    edited = "chapters/01-executor/rt/scheduler/current_thread.cpp"
    with open(os.path.join(clone, edited)) as f:
        committed = f.read()
    with open(os.path.join(clone, edited), "a") as f:
        f.write("// an instructor's answer\n")
    bundle = os.path.join(scratch, "dirty.zip")
    made = subprocess.run([os.path.join(clone, "scripts", "gradescope"), "1", "-o", bundle],
                          capture_output=True, text=True)
    with zipfile.ZipFile(bundle) as z:
        shipped = z.read(edited).decode()
    check(made.returncode == 0 and shipped == committed,
          "the bundle holds the file as committed, not the edit on disk", made.stdout + made.stderr)
    check(edited in made.stdout, "the edited file is named", made.stdout)
    shutil.rmtree(clone)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    source_root = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="check-gradescope-") as scratch:
        os.chmod(scratch, 0o755)
        bundle = os.path.join(scratch, "autograder.zip")
        for wrong in ("99", "0", "3-1"):
            refused = subprocess.run([os.path.join(source_root, "scripts", "gradescope"), wrong,
                                      "-o", bundle], capture_output=True, text=True)
            check(refused.returncode == 2 and not os.path.exists(bundle),
                  f"scripts/gradescope {wrong} (no such chapter) is refused and writes no bundle",
                  refused.stderr)
        made = subprocess.run([os.path.join(source_root, "scripts", "gradescope"), "1",
                               "--hidden", os.path.join(source_root, "tests", "grader",
                                                        "hidden-example"),
                               "-o", bundle], capture_output=True, text=True)
        check(made.returncode == 0 and os.path.exists(bundle), "scripts/gradescope writes a bundle",
              made.stdout + made.stderr)
        if made.returncode != 0:
            return 1
        check_committed_tree(source_root, scratch)
        with zipfile.ZipFile(bundle) as z:
            names = set(z.namelist())
        check({"setup.sh", "run_autograder", "gradescope.conf",
               f"hidden/{CHAPTER}/hidden_spawn_test.cpp"} <= names,
              "the bundle holds setup.sh, run_autograder, its settings and the hidden tests")
        with zipfile.ZipFile(bundle) as z:
            conf = z.read("gradescope.conf").decode()
        check("--sanitize all" in conf and "--count-regressions" in conf
              and "--no-count-regressions" not in conf,
              "by default the bundle grades in every mode and counts regressions", conf)

        autograder = os.path.join(scratch, "autograder")
        unpack(bundle, os.path.join(autograder, "source"))
        setup = subprocess.run(["sh", os.path.join(autograder, "source", "setup.sh")],
                               env=dict(os.environ, AUTOGRADER_ROOT=autograder),
                               capture_output=True, text=True, errors="replace", timeout=1800)
        check(setup.returncode == 0, "setup.sh installs and builds what grading needs",
              setup.stdout[-2000:] + setup.stderr[-2000:])
        if setup.returncode != 0:
            return 1
        hidden_mode = os.stat(os.path.join(autograder, "source", "hidden")).st_mode
        check(hidden_mode & 0o077 == 0, "setup.sh leaves the hidden tests to root alone",
              oct(hidden_mode))
        work = os.path.join(autograder, "work")
        prebuilt = [mode for mode in MODES
                    if os.path.isfile(os.path.join(work, f"build-{mode}", "tests",
                                                   "chapters-01-tests-01"))]
        check(prebuilt == list(MODES), "setup.sh prebuilds the copy's tests in all three modes",
              repr(prebuilt))

        # The starter first: setup.sh built the copy with it, so nothing is rebuilt.
        finished, results = run_autograder(
            autograder, lambda where: submission_from(source_root, where, solved=False))
        full, count = expected_points(autograder, source_root)
        check(results.get("score") == 0 and len(results.get("tests", [])) == count and
              all(t["status"] == "failed" for t in results["tests"]),
              "an untouched starter scores 0, with a failed entry per test",
              repr(results)[:600])

        full, count = expected_points(autograder, source_root)
        finished, results = run_autograder(
            autograder, lambda where: submission_from(source_root, where, solved=True))
        tests = results.get("tests", [])
        hidden = [t for t in tests if "hidden:" in t.get("name", "")]
        check(results.get("score") == full and len(tests) == count,
              f"a complete submission scores {full} (hidden tests included) in results.json",
              f"{results.get('score')} over {len(tests)} tests; {finished.stderr[-1500:]}")
        check(len(hidden) == 2 and all(t["visibility"] == "after_published" and
                                       t["score"] == t["max_score"] for t in hidden),
              "hidden tests are graded and shown only once grades are published", repr(hidden))
        check(all(t.get("status") == "passed" for t in tests), "every test entry says passed")
        check(all(t.get("output", "").startswith("pass (plain, thread, address)") for t in tests)
              and "under ThreadSanitizer and under AddressSanitizer" in results.get("output", ""),
              "every test passed plain, under ThreadSanitizer and under AddressSanitizer",
              repr([t.get("output", "")[:60] for t in tests][:5]) + results.get("output", ""))
        check("configuring" not in finished.stderr,
              "grading a submission configures nothing: setup.sh did", finished.stderr[-1500:])

        def not_the_course(where):
            with open(os.path.join(where, "essay.txt"), "w") as f:
                f.write("not code\n")

        finished, results = run_autograder(autograder, not_the_course)
        check(results.get("score") == 0 and "could not be graded" in results.get("output", "")
              and "chapters/" in results.get("output", ""),
              "an upload that is not the course gets 0 and a message saying why",
              repr(results)[:600])
        mode = os.stat(os.path.join(autograder, "results")).st_mode
        check(not mode & stat.S_IWOTH, "the results folder is not writable by the tests' user")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
