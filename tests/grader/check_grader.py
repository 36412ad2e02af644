#!/usr/bin/env python3
"""The grader's own tests: grades the misbehaving fixture binary and checks
that every kind of failure is reported as what it is (a stub's rt::Todo as
"not started", naming the exercise, wherever it was thrown; a hang with
what the process was doing, so that a busy loop and a deadlock read
apart), that the result files are valid JSON (also when the grader is
killed half-way), that --repeat behaves, and that bad command lines fail
fast with exit status 2 and touch nothing.

Usage: check_grader.py GRADER FIXTURE FIXTURE_SOURCE
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from tally import check, summary


# The fixture's tests: name -> (points, expected status).
EXPECTED = {
    "passes": (1, "pass"),
    "fails a check": (2, "fail"),
    "crashes with SIGSEGV": (1, "crash"),
    "fails an assertion": (1, "crash"),
    "hangs forever": (1, "timeout"),
    "prints 20 MB": (1, "pass"),
    "prints a fake pass line": (1, "exited early"),
    "calls exit half-way": (1, "exited early"),
    "throws an exception": (1, "fail"),
    "stops the grader": (1, "pass"),
    "throws a Todo": (1, "not started"),
    "throws a Todo on a worker thread": (2, "not started"),
    "throws a Todo in a destructor": (1, "not started"),
    "keeps a Todo and waits": (1, "not started"),
    "spins on a worker thread": (1, "timeout"),
    "deadlocks two threads": (1, "timeout"),
}
# The exercise each "not started" test must name.
EXERCISES = {
    "throws a Todo": "1 of chapter 01 (fixture_spawn, in rt/fixture.cpp)",
    "throws a Todo on a worker thread": "1 of chapter 01 (fixture_spawn, in rt/fixture.cpp)",
    "throws a Todo in a destructor": "3 of chapter 01 (fixture_drop, in rt/fixture.hpp)",
    "keeps a Todo and waits": "2 of chapter 01 (fixture_wake, in rt/fixture.hpp)",
}
TIMEOUT = 2


SOURCE = None  # the fixture's source, where the grader reads its tests


def run_grader(grader, *args, timeout=240):
    return subprocess.run([grader, *args], capture_output=True, text=True,
                          errors="replace", timeout=timeout)


def fixture_args(fixture):
    return ["--binary", fixture, "--sources", SOURCE]


def load_json(path):
    """The parsed file, or None when it is missing or not valid JSON."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def check_listing(fixture):
    listing = subprocess.run([fixture, "--list"], capture_output=True, text=True)
    lines = listing.stdout.splitlines()
    check(listing.returncode == 0 and len(lines) == len(EXPECTED),
          "fixture --list prints one line per test case", listing.stdout + listing.stderr)
    fields = {line.split("\t")[2]: line.split("\t")[:2] for line in lines if line.count("\t") == 2}
    check(fields.get("passes") == ["1", "30"], "--list shows points and the declared timeout",
          repr(fields.get("passes")))
    check(fields.get("fails a check", [""])[0] == "2", "--list shows the points of each test")


def check_full_run(grader, fixture, workdir):
    json_path = os.path.join(workdir, "full.json")
    gradescope_path = os.path.join(workdir, "full-gradescope.json")
    result = run_grader(grader, *fixture_args(fixture), "--timeout", str(TIMEOUT),
                        "--json", json_path, "--gradescope", gradescope_path)
    print(result.stdout)
    check(result.returncode == 1, "the grader exits 1 when marks are missing",
          f"exit status {result.returncode}; stderr: {result.stderr}")
    earned = sum(p for p, s in EXPECTED.values() if s == "pass")
    possible = sum(p for p, _ in EXPECTED.values())
    last_line = result.stdout.rstrip("\n").splitlines()[-1] if result.stdout.strip() else ""
    check(last_line == f"Score: {earned}/{possible}", "the last console line is the score",
          repr(last_line))
    check_grader_json(load_json(json_path), earned, possible)
    check_gradescope_json(load_json(gradescope_path), earned)
    check_folded_console(result.stdout)


def check_folded_console(stdout):
    """Tests stopped by one exercise are one console line, saying how many."""
    lines = [line for line in stdout.splitlines() if " not started " in line]
    check(len(lines) == len(set(EXERCISES.values())),
          "the console shows one 'not started' line per exercise", "\n".join(lines))
    spawn = [line for line in lines if "1 of chapter 01 (fixture_spawn, in rt/fixture.cpp)" in line]
    check(len(spawn) == 1 and "needed by 2 tests" in spawn[0] and "0/3" in spawn[0],
          "an exercise's line counts its tests and their points", repr(spawn))
    check("throws a Todo on a worker thread" not in stdout,
          "a test stopped by a stub gets no line of its own")

def check_grader_json(record, earned, possible):
    check(record is not None, "--json writes valid JSON")
    if record is None:
        return
    check(record.get("complete") is True, "the JSON says grading completed")
    check(record.get("score") == earned and record.get("max_score") == possible,
          "the JSON has the right score", f"{record.get('score')}/{record.get('max_score')}")
    tests = {t["name"]: t for t in record.get("tests", [])}
    for name, (points, status) in EXPECTED.items():
        test = tests.get(name, {})
        check(test.get("status") == status, f"'{name}' is reported as {status}",
              f"got {test.get('status')!r}: {test.get('message', '')[:500]}")
        check(test.get("points_possible") == points and
              test.get("points_earned") == (points if status == "pass" else 0),
              f"'{name}' earns the right points")
        for field in ("chapter", "counted", "regression", "seconds", "runs", "failed_runs",
                      "message", "output"):
            if field not in test:
                check(False, f"'{name}' has the field {field}")
    check_messages(tests)


def check_messages(tests):
    message = lambda name: tests.get(name, {}).get("message", "")
    check("answer == 2" in message("fails a check") and "1 == 2" in message("fails a check"),
          "a failed CHECK shows the expression and its values", message("fails a check"))
    check("SIGSEGV" in message("crashes with SIGSEGV"), "a crash names its signal",
          message("crashes with SIGSEGV"))
    check("cause: " in message("fails an assertion") and "Assertion" in message("fails an assertion"),
          "a crash shows the line that says why first", message("fails an assertion"))
    for name, exercise in EXERCISES.items():
        test = tests.get(name, {})
        check(test.get("exercise") == exercise and exercise in test.get("message", ""),
              f"'{name}' names the exercise {exercise}",
              f"{test.get('exercise')!r}: {test.get('message', '')[:400]}")
    check("crash" in message("throws a Todo on a worker thread"),
          "a Todo that reached std::terminate says the process crashed",
          message("throws a Todo on a worker thread"))
    check("timeout" in message("keeps a Todo and waits"),
          "a Todo kept while the test waits says the test then ran out of time",
          message("keeps a Todo and waits"))
    for name in ("hangs forever", "deadlocks two threads"):
        check("every thread was asleep" in message(name) and "deadlock" in message(name)
              and "lost wake-up" in message(name) and "busy loop" not in message(name),
              f"'{name}': a blocked process reads as a deadlock or a lost wake-up", message(name))
    spin = message("spins on a worker thread")
    check("kept running" in spin and "busy loop" in spin and "asleep" not in spin,
          "a spinning thread reads as a busy loop", spin)
    check("CPU time" in spin and "running" in spin and "sleeping" in spin,
          "a timeout lists CPU time and each thread's state", spin)
    if shutil.which("gdb"):
        check("fixture.cpp:" in message("deadlocks two threads")
              and "top frames (gdb)" in message("deadlocks two threads"),
              "with gdb installed, a timeout shows each thread's top frames",
              message("deadlocks two threads"))
    check("boom from the fixture" in message("throws an exception"),
          "an escaped exception shows its what()", message("throws an exception"))
    garbage = tests.get("fails a check", {}).get("output", "")
    expected = 'garbage: \ufffd\ufffd\x01\x1b[31m\ufffd \ufffd\ufffd\ufffd "quoted" back\\slash'
    check(expected in garbage, "invalid UTF-8 and control characters survive as valid JSON",
          repr(garbage[:300]))
    hang = tests.get("hangs forever", {}).get("seconds", 1e9)
    check(hang < TIMEOUT + 1.5, "the hanging test is stopped at its timeout", f"{hang} s")
    garbage_output = tests.get("fails a check", {}).get("output", "")
    check("grader-note" not in garbage_output,
          "a test that throws no Todo gets no note about one", garbage_output[:300])
    flood = tests.get("prints 20 MB", {}).get("output", "")
    check(0 < len(flood.encode()) <= 10 * 1024, "captured output is cut to a sane size",
          f"{len(flood)} characters")


def check_gradescope_json(results, earned):
    check(results is not None, "--gradescope writes valid JSON")
    if results is None:
        return
    check(results.get("score") == earned, "Gradescope's score is right", repr(results.get("score")))
    check(isinstance(results.get("output"), str), "Gradescope's results have an output")
    tests = {t.get("name", "").split("] ", 1)[-1]: t for t in results.get("tests", [])}
    check(set(tests) == set(EXPECTED), "Gradescope has one entry per test", repr(sorted(tests)))
    for name, (points, status) in EXPECTED.items():
        test = tests.get(name, {})
        expected = "passed" if status == "pass" else "failed"
        check(test.get("status") == expected and test.get("max_score") == points and
              test.get("score") == (points if status == "pass" else 0) and
              test.get("visibility") == "visible" and isinstance(test.get("output"), str),
              f"Gradescope entry for '{name}' is right", repr(test)[:300])


def fixture_processes(fixture):
    """Process ids still running the fixture binary."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if argv and os.path.basename(argv[0]) == os.path.basename(fixture).encode():
            found.append(int(pid))
    return found


def finished_tests(path):
    record = load_json(path)
    return record.get("tests", []) if record else []


def check_killed_run(grader, fixture, workdir):
    """Kills the grader once three tests are done (the fourth hangs)."""
    json_path = os.path.join(workdir, "killed.json")
    gradescope_path = os.path.join(workdir, "killed-gradescope.json")
    process = subprocess.Popen([grader, *fixture_args(fixture), "--timeout", "60",
                                "--json", json_path, "--gradescope", gradescope_path],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    # The Gradescope file is written just after the JSON: wait for both.
    while (len(finished_tests(json_path)) < 3 or len(finished_tests(gradescope_path)) < 3) \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    done = [t["name"] for t in finished_tests(json_path)]
    process.send_signal(signal.SIGKILL)
    process.wait()
    check(len(done) >= 3, "the JSON file grows as tests finish", repr(done))
    record = load_json(json_path)
    results = load_json(gradescope_path)
    check(record is not None and record.get("complete") is False,
          "after SIGKILL the JSON is valid and marked incomplete")
    check(record is not None and [t["name"] for t in record["tests"]][:len(done)] == done,
          "after SIGKILL the JSON holds the finished tests")
    check(results is not None and len(results.get("tests", [])) >= len(done),
          "after SIGKILL the Gradescope file is valid and holds the finished tests")
    time.sleep(0.5)
    check(not fixture_processes(fixture), "no test process outlives a killed grader",
          repr(fixture_processes(fixture)))


def check_todo_grace(grader, fixture, workdir):
    # A test that keeps a Todo and then waits is stopped soon after the Todo
    # (the grader's grace is 5 s), not at the end of a 60 s limit.
    json_path = os.path.join(workdir, "todo-grace.json")
    run_grader(grader, *fixture_args(fixture), "--filter", "keeps a Todo and waits",
               "--timeout", "60", "--json", json_path)
    tests = finished_tests(json_path)
    check(len(tests) == 1 and tests[0]["status"] == "not started"
          and tests[0]["seconds"] < 30,
          "a test that waits after a Todo is stopped soon after it, not at its time limit",
          repr(tests))


def check_repeat(grader, fixture, workdir):
    json_path = os.path.join(workdir, "repeat.json")
    result = run_grader(grader, *fixture_args(fixture), "--filter", "passes", "--repeat", "3",
                        "--json", json_path)
    check(result.returncode == 0, "--repeat 3 of a passing test exits 0",
          result.stdout + result.stderr)
    tests = finished_tests(json_path)
    check(len(tests) == 1 and tests[0]["runs"] == 3 and tests[0]["failed_runs"] == 0
          and tests[0]["status"] == "pass", "--repeat 3 runs the test three times", repr(tests))
    check(result.stdout.rstrip().splitlines()[-1:] == ["Score: 1/1"],
          "--filter keeps only the match")

    result = run_grader(grader, *fixture_args(fixture), "--filter", "crashes", "--repeat", "3",
                        "--json", json_path)
    tests = finished_tests(json_path)
    check(result.returncode == 1 and len(tests) == 1 and tests[0]["failed_runs"] == 3
          and "3 of 3" in tests[0]["message"], "--repeat reports how many runs failed", repr(tests))


def check_bad_command_lines(grader, fixture, workdir):
    """Each of these must fail at once, with exit 2, before any test runs."""
    json_path = os.path.join(workdir, "never.json")
    locked = os.path.join(workdir, "locked")
    os.makedirs(locked, exist_ok=True)
    fifo = os.path.join(workdir, "planted.fifo")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    victim = os.path.join(workdir, "victim.txt")
    with open(victim, "w") as f:
        f.write("untouched\n")
    link = os.path.join(workdir, "planted.json")
    if not os.path.lexists(link):
        os.symlink(victim, link)
    cases = {
        "--timeout nan": ["--timeout", "nan"],
        "--timeout inf": ["--timeout", "inf"],
        "--timeout 1e10": ["--timeout", "1e10"],
        "--timeout -1": ["--timeout", "-1"],
        "--timeout 1e-300": ["--timeout", "1e-300"],
        "--build-timeout 0": ["--build-timeout", "0"],
        "--build-timeout nan": ["--build-timeout", "nan"],
        "--build-timeout 1e9": ["--build-timeout", "1e9"],
        "--json naming a FIFO": ["--json", fifo],
        "--json naming a symbolic link": ["--json", link],
        "--workdir below a missing folder": ["--workdir", os.path.join(workdir, "no", "such", "place")],
        "--repeat 0": ["--repeat", "0"],
        "--repeat 1e9": ["--repeat", "1000000000"],
        "--json in a missing folder": ["--gradescope", os.path.join(workdir, "no", "such.json")],
        "--json naming a folder": ["--json", locked],
        "--binary without --sources": ["--binary", fixture],
        "--sanitize all with --binary (built in one mode)": ["--sanitize", "all"],
        "--sanitize with no such mode": ["--sanitize", "memory"],
        "--no-count-regressions without --submission": ["--no-count-regressions"],
        "--count-regressions with --no-count-regressions": ["--count-regressions",
                                                            "--no-count-regressions"],
        "--build-only with --binary": ["--build-only"],
    }
    for what, extra in cases.items():
        args = extra if what == "--binary without --sources" else [*fixture_args(fixture), *extra]
        started = time.monotonic()
        result = run_grader(grader, *args, "--json", json_path) if "--json" not in extra \
            else run_grader(grader, *args)
        check(result.returncode == 2 and time.monotonic() - started < 5
              and result.stdout.strip() == "" and not os.path.exists(json_path),
              f"{what} is refused at once with exit 2 and no result file",
              f"exit {result.returncode}; stdout {result.stdout[:200]!r}; stderr {result.stderr[:300]!r}")
    with open(victim) as f:
        check(f.read() == "untouched\n", "the file behind a planted --json link is left alone")
    check(not os.path.exists(os.path.join(workdir, "no")), "a refused --workdir creates no folder")
    if os.geteuid() != 0:  # root may write anywhere
        os.chmod(locked, 0o500)
        result = run_grader(grader, *fixture_args(fixture), "--json",
                            os.path.join(locked, "r.json"))
        check(result.returncode == 2, "an unwritable --json folder is refused with exit 2",
              result.stderr)


def check_stopped_grader(grader, fixture):
    """A test that sends the grader SIGSTOP cannot stall it, sandboxed or not."""
    for mode in ("--sandbox", "--no-sandbox") if os.geteuid() == 0 else ("--no-sandbox",):
        started = time.monotonic()
        try:
            result = run_grader(grader, *fixture_args(fixture), "--filter", "stops the grader",
                                mode, timeout=60)
            passed = result.returncode == 0 and time.monotonic() - started < 10
            detail = result.stdout[-400:]
        except subprocess.TimeoutExpired:
            passed, detail = False, "the grader stayed stopped"
        check(passed, f"SIGSTOP from a test does not stall the grader ({mode})", detail)


def check_escaping(grader, fixture, workdir):
    """Control characters a test prints never reach the terminal raw."""
    result = run_grader(grader, *fixture_args(fixture), "--filter", "calls exit")
    check("\x1b" not in result.stdout and "\\x1b[31m" in result.stdout,
          "control characters in test output are shown escaped", repr(result.stdout[:400]))


BAD_SOURCES = {
    "no POINTS": ('TEST_CASE("a") {}\n', "has no POINTS(n)"),
    "zero points": ('TEST_CASE("a" * POINTS(0)) {}\n', "from 1 to 100"),
    "too many points": ('TEST_CASE("a" * POINTS(1000)) {}\n', "from 1 to 100"),
    "a name used twice": ('TEST_CASE("a" * POINTS(1)) {}\n\nTEST_CASE("a" * POINTS(1)) {}\n',
                          "a second test case"),
    "a wildcard in a name": ('TEST_CASE("a*" * POINTS(1)) {}\n', "must not"),
    "a name that is not a literal": ('TEST_CASE(name * POINTS(1)) {}\n', "string literal"),
}


def check_test_sources(grader, fixture, workdir):
    """The tests and points come from the sources; bad sources are refused
    with file and line, and a declared test the binary lacks fails."""
    for what, (text, message) in BAD_SOURCES.items():
        path = os.path.join(workdir, "bad_test.cpp")
        with open(path, "w") as f:
            f.write("// a test source\n" + text)
        result = run_grader(grader, "--binary", fixture, "--sources", path)
        check(result.returncode == 2 and message in result.stderr and "bad_test.cpp:" in result.stderr,
              f"a test source with {what} is refused, naming the file and line", result.stderr)
    path = os.path.join(workdir, "declared_test.cpp")
    json_path = os.path.join(workdir, "declared.json")
    with open(path, "w") as f:
        f.write('// TEST_CASE("in a comment") is not a test\n'
                '/* TEST_CASE("nor in a block comment" * POINTS(50)) */\n'
                'const char* s = "TEST_CASE(\\"nor in a string\\")";\n'
                'TEST_CASE("passes" * POINTS(1) * doctest::timeout(30)) {}\n'
                'TEST_CASE("not in the binary" // a comment in between\n'
                '          * POINTS(3)) {}\n')
    result = run_grader(grader, "--binary", fixture, "--sources", path, "--json", json_path)
    tests = {t["name"]: t for t in finished_tests(json_path)}
    check(set(tests) == {"passes", "not in the binary"},
          "only the TEST_CASEs of the sources are graded, whatever the binary holds",
          repr(sorted(tests)) + result.stderr)
    missing = tests.get("not in the binary", {})
    check(missing.get("status") == "fail" and missing.get("points_possible") == 3 and
          "no test case is named exactly" in missing.get("message", ""),
          "a declared test the binary lacks fails", repr(missing)[:400])
    check(result.stdout.rstrip().splitlines()[-1:] == ["Score: 1/4"],
          "the score's total comes from the sources", result.stdout[-200:])


def check_usage_error(grader, workdir):
    builddir = os.path.join(workdir, "build")
    os.makedirs(builddir, exist_ok=True)
    with open(os.path.join(builddir, "course-manifest.txt"), "w") as f:
        f.write(f"source_root {workdir}\nchapters 01-executor 02-wakers\n")
    result = run_grader(grader, "--builddir", builddir, "7")
    check(result.returncode == 2, "an unknown chapter is a usage error (exit 2)",
          f"exit {result.returncode}: {result.stderr}")
    check("01-executor" in result.stderr and "02-wakers" in result.stderr,
          "the usage error lists the chapters", result.stderr)
    result = run_grader(grader, "--no-such-option")
    check(result.returncode == 2, "an unknown option is a usage error (exit 2)")


def check_stuck_stopped_early(grader, fixture, workdir):
    """A test whose every thread sleeps for good is stopped within seconds,
    long before a generous time limit; a spinning one is not (it could
    still finish)."""
    json_path = os.path.join(workdir, "stuck.json")
    started = time.monotonic()
    run_grader(grader, *fixture_args(fixture), "--timeout", "60", "--filter", "deadlocks two threads",
               "--json", json_path)
    took = time.monotonic() - started
    tests = {t["name"]: t for t in (load_json(json_path) or {}).get("tests", [])}
    test = tests.get("deadlocks two threads", {})
    message = test.get("message", "")
    check(test.get("status") == "timeout" and test.get("seconds", 1e9) < 5 and took < 30,
          "a deadlock is stopped in under 5 s, not at the 60 s limit",
          f"{test.get('status')} after {test.get('seconds')} s (the grader took {took:.1f} s)")
    check("not at its 60 s limit" in message and "wait with no timeout" in message,
          "the early stop says why", message[:400])


def main():
    global SOURCE
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    grader, fixture, SOURCE = (os.path.abspath(p) for p in sys.argv[1:])
    with tempfile.TemporaryDirectory(prefix="check-grader-") as workdir:
        check_listing(fixture)
        check_full_run(grader, fixture, workdir)
        check_stuck_stopped_early(grader, fixture, workdir)
        check_killed_run(grader, fixture, workdir)
        check_repeat(grader, fixture, workdir)
        check_todo_grace(grader, fixture, workdir)
        check_usage_error(grader, workdir)
        check_bad_command_lines(grader, fixture, workdir)
        check_escaping(grader, fixture, workdir)
        check_stopped_grader(grader, fixture)
        check_test_sources(grader, fixture, workdir)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
