#!/usr/bin/env python3
"""The course's promises about its own chapters, checked with the grader.

    check_course.py solutions GRADER BUILDDIR [daily|full]
        every solution scores full marks on its own chapter's tests, and the
        newest on every earlier chapter's (daily, the default); with full,
        every solution on every earlier chapter's (regressions counted);
    check_course.py solutions GRADER BUILDDIR newest
        the newest solution on every chapter's tests only;
        the runs of a check are graded side by side, a grader per core
        (CHECK_COURSE_LANES=N: N at most);
    check_course.py solutions GRADER BUILDDIR daily --sanitize thread
        the same, with every further argument passed to the grader;
    check_course.py starters GRADER BUILDDIR
        every starter compiles, and every test that is new in chapter N
        fails on chapter N's starter: a test that passes on the starter it
        grades asserts nothing about the exercise. Built in BUILDDIR/starters,
        configured like BUILDDIR but with every runtime as one unit
        (-Druntime_unity=all): twelve starters built at once cost a seventh
        of their files built one by one, and a student's build/ keeps a
        unit per file.

These read chapters/ as committed: on a student's copy, where chapters/
holds their own work, use ./scripts/grade instead.
"""
import filecmp
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time


def grade(grader, builddir, *arguments):
    with tempfile.NamedTemporaryFile(suffix=".json") as record:
        command = [grader, "--builddir", builddir, "--json", record.name, *arguments]
        print("running:", " ".join(command), flush=True)
        finished = subprocess.run(command)
        with open(record.name) as f:
            return finished.returncode, json.load(f)


def lanes():
    """How many graders may run at once: CHECK_COURSE_LANES, default the
    machine's cores."""
    return max(1, int(os.environ.get("CHECK_COURSE_LANES", os.cpu_count() or 1)))


def grade_side_by_side(grader, builddir, runs, extra):
    """Grades each run of arguments, as many at once as there are lanes
    (CHECK_COURSE_LANES, default the machine's cores): a grader runs one
    test at a time, so one grader leaves every other core idle. Their
    binaries are built first, one build after the other, so that no two
    ninjas share the build directory; each grader's output is printed when
    it is done. Returns [(status, record)] in the order of runs."""
    at_once = min(len(runs), lanes())
    if at_once < 2:
        return [grade(grader, builddir, *arguments, *extra) for arguments in runs]
    for arguments in runs:
        command = [grader, "--builddir", builddir, *arguments, *extra, "--build-only"]
        print("running:", " ".join(command), flush=True)
        subprocess.run(command)  # what fails to build is graded "does not compile" below
    results = [None] * len(runs)
    pending = list(enumerate(runs))
    running = []
    with tempfile.TemporaryDirectory() as scratch:
        while pending or running:
            while pending and len(running) < at_once:
                index, arguments = pending.pop(0)
                record = os.path.join(scratch, f"{index}.json")
                output = open(os.path.join(scratch, f"{index}.log"), "w+")
                command = [grader, "--builddir", builddir, "--json", record, *arguments, *extra]
                print("running:", " ".join(command), flush=True)
                running.append((index, record, output,
                                subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)))
            finished = next((r for r in running if r[3].poll() is not None), None)
            if finished is None:
                time.sleep(0.2)  # polling the graders' exits, not timing them
                continue
            running.remove(finished)
            index, record, output, process = finished
            output.seek(0)
            sys.stdout.write(output.read())
            output.close()
            with open(record) as f:
                results[index] = (process.returncode, json.load(f))
    return results


def chapters(builddir):
    with open(f"{builddir}/course-manifest.txt") as manifest:
        for line in manifest:
            key, _, value = line.strip().partition(" ")
            if key == "chapters":
                return [name[:2] for name in value.split()]
    return []


def split_by_weight(course, lanes):
    """The full matrix in `lanes` runs of about equal work: chapter N's
    runtime runs the tests of chapters 1 to N, so its weight grows with N;
    the heaviest first, each to the lightest run."""
    groups = [[] for _ in range(lanes)]
    weights = [0] * lanes
    for index in sorted(range(len(course)), reverse=True):
        lightest = weights.index(min(weights))
        groups[lightest].append(course[index])
        weights[lightest] += index + 1
    return [sorted(group) for group in groups if group]


def check_solutions(grader, builddir, matrix, extra):
    course = chapters(builddir)
    runs = [("--solutions", *group, "--count-regressions") for group in split_by_weight(course, lanes())]
    if matrix in ("daily", "newest"):
        runs = [("--solutions", course[-1], "--count-regressions")]
        if matrix == "daily" and len(course) > 1:
            runs.insert(0, ("--solutions", *course[:-1], "--own-tests"))
    code, record = 0, {"tests": [], "complete": True, "score": 0, "max_score": 0}
    for status, part in grade_side_by_side(grader, builddir, runs, extra):
        code = code or status
        record["tests"] += part["tests"]
        record["complete"] = record["complete"] and part["complete"]
        record["score"] += part["score"]
        record["max_score"] += part["max_score"]
    failing = [t for t in record["tests"] if t["status"] != "pass"]
    for t in failing:
        print(f"FAIL solutions/{t['chapter']} on chapter {t['test_chapter']}'s "
              f"'{t['name']}': {t['status']}\n    {t['message'][:500]}")
    if not record["tests"]:
        print("FAIL: the grader ran no test")
        return 1
    if code != 0 or failing or not record["complete"]:
        return 1
    print(f"every solution scores full marks: {record['score']}/{record['max_score']} "
          f"over {len(record['tests'])} graded runs")
    return 0


def starters_builddir(builddir):
    """BUILDDIR/starters: configured once, with BUILDDIR's compiler and
    werror, every runtime as one unit, and nothing but runtimes and tests."""
    starters = os.path.join(builddir, "starters")
    if os.path.exists(os.path.join(starters, "build.ninja")):
        return starters
    info = os.path.join(builddir, "meson-info")
    with open(os.path.join(info, "intro-buildoptions.json")) as f:
        werror = next(o["value"] for o in json.load(f) if o["name"] == "werror")
    with open(os.path.join(info, "intro-targets.json")) as f:
        compiler = next(t["target_sources"][0]["compiler"] for t in json.load(f) if t["target_sources"])
    with open(os.path.join(info, "meson-info.json")) as f:
        source = json.load(f)["directories"]["source"]
    command = ["meson", "setup", starters, source, "-Druntime_unity=all", "-Dexperiments=false",
               "-Dbench=disabled", "-Dself_checks=false", f"-Dwerror={str(werror).lower()}"]
    print("configuring:", " ".join(command), flush=True)
    configured = subprocess.run(command, env={**os.environ, "CXX": " ".join(compiler)},
                                stdout=subprocess.DEVNULL)
    if configured.returncode != 0:
        raise SystemExit(f"FAIL: meson could not configure {starters}")
    return starters


def starter_files_alone(starters):
    """The starter files that differ from their solution (the stubs), each
    compiled alone (-fsyntax-only) with its runtime's flags, a header as the
    only include of a file: a unit of many files can hide an include that
    one file forgot, which a student, who builds file by file, would meet.
    The other files are the solution's, which the mutation check builds
    file by file."""
    with open(os.path.join(starters, "compile_commands.json")) as f:
        commands = json.load(f)
    failures = []
    for entry in commands:
        name = os.path.basename(entry["output"])
        if not name.startswith("meson-generated_rt-chapters-"):
            continue
        words = shlex.split(entry["command"])
        chapter = next(w[2:] for w in words if w.startswith("-I") and "/chapters/" in w)
        solution = chapter.replace("/chapters/", "/solutions/")
        flags, skip = [], False
        for w in words[:-1]:
            if skip or w in ("-o", "-MF", "-MQ", "-MD", "-c"):
                skip = w in ("-o", "-MF", "-MQ")
                continue
            flags.append("-fdiagnostics-color=never" if w.startswith("-fdiagnostics-color") else w)
        for root, _, files in os.walk(os.path.join(entry["directory"], chapter)):
            for file in sorted(files):
                path = os.path.join(root, file)
                twin = path.replace(chapter, solution, 1)
                if not file.endswith((".cpp", ".hpp")) or \
                        (os.path.exists(twin) and filecmp.cmp(path, twin, shallow=False)):
                    continue
                header = os.path.relpath(path, os.path.join(entry["directory"], chapter))
                alone = (["-x", "c++", "-"], f'#include "{header}"\n') if file.endswith(".hpp") \
                    else ([path], None)
                compiled = subprocess.run(flags + ["-fsyntax-only", *alone[0]], input=alone[1],
                                          cwd=entry["directory"], capture_output=True, text=True)
                if compiled.returncode != 0:
                    failures.append(f"{os.path.relpath(path, entry['directory'])}:\n    {compiled.stderr[:800]}")
    return failures


def check_starters(grader, builddir, matrix, extra):
    # Only the chapters' own tests: regressions on a starter prove nothing.
    starters = starters_builddir(builddir)
    course = chapters(starters)
    count = min(lanes(), len(course))
    runs = [(*course[lane::count], "--own-tests") for lane in range(count)]
    record = {"tests": [], "complete": True}
    for _, part in grade_side_by_side(grader, starters, runs, extra):  # its status: starters fail
        record["tests"] += part["tests"]
        record["complete"] = record["complete"] and part["complete"]
    alone = starter_files_alone(starters)
    for failure in alone:
        print(f"FAIL: a starter file does not compile by itself: {failure}")
    own = [t for t in record["tests"] if not t["regression"]]
    passing = [t for t in own if t["status"] == "pass"]
    broken = [t for t in record["tests"] if t["status"] == "does not compile"]
    for t in passing:
        print(f"FAIL: '{t['name']}' (chapter {t['chapter']}) passes on its starter")
    for chapter in sorted({t["chapter"] for t in broken}):
        first = next(t for t in broken if t["chapter"] == chapter)
        print(f"FAIL: chapters/{chapter} does not compile:\n    {first['message'][:800]}")
    if not own:
        print("FAIL: the grader ran no test")
        return 1
    if passing or broken or alone or not record["complete"]:
        return 1
    print(f"every starter compiles, and all {len(own)} new tests fail on their starters")
    return 0


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("solutions", "starters") or \
            (len(sys.argv) > 4 and sys.argv[4] not in ("daily", "full", "newest")):
        print(__doc__, file=sys.stderr)
        return 2
    matrix = sys.argv[4] if len(sys.argv) > 4 else "daily"
    check = check_solutions if sys.argv[1] == "solutions" else check_starters
    return check(sys.argv[2], sys.argv[3], matrix, sys.argv[5:])


if __name__ == "__main__":
    sys.exit(main())
