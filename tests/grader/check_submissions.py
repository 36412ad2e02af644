#!/usr/bin/env python3
"""Adversarial submissions: student repositories written to cheat, escape or
break the grader, each graded as an instructor would (--submission, in a
pristine copy of the course, sandboxed when root) and each held to the exact
score and integrity findings it must get.

Usage: check_submissions.py GRADER BUILDDIR SOURCE_ROOT [submissions|runs]
       CHECK_SUBMISSIONS_ONLY=TEXT check_submissions.py ...   the cases and checks named so

With `submissions`, only the submissions graded one by one (CASES); with
`runs`, only the checks of whole grading runs (sanitizers by default,
regressions, hidden tests, isolation); with neither, both. Each part works
in a copy of the course of its own, so the two can run side by side
(meson test runs them so: a grade waits for its tests on one core).

Every submission is chapter 01 of the course as committed, with the
student's files replaced by the solution's (an honest, complete answer) or
left as the starter (nothing done), then one attack added. The attacks go
into rt/rt.hpp, which every test includes, or next to it. They are graded
plain (--sanitize plain, the opt-out of the default three modes), but the
ones that silence a sanitizer, which need it.

Then what the instructor's default grade adds, each checked against what it
must score: each test runs plain, under ThreadSanitizer and under
AddressSanitizer (hidden tests that pass plain but race, or overflow a
buffer, score 0, naming the mode); and chapter 02's grade counts chapter
01's tests on chapter 02's runtime (an answer that breaks one loses its
points, and the report names it).
"""

import ctypes
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from tally import check, summary

CHAPTER = "01-executor"
ROOT = os.geteuid() == 0
# Set in main(): the course's root, chapter 01's points, and its first test.
SOURCE_ROOT = FULL = FIRST_TEST = FIRST_POINTS = None


# Code each attack appends to one of the student's files: rt/rt.hpp, which
# every test includes, for what must reach the tests' own code, else the
# runtime's first .cpp file (one translation unit to rebuild, and its
# definitions land in the runtime's objects). MARKER and RESULTS are
# replaced with paths of this run.
IN_HEADER = {"redefine-test-case", "extra-test-cases"}
INCLUDE_DOCTEST = "#include <doctest/doctest.h>\n"

ATTACKS = {
    # Empties every test that includes the header.
    "redefine-test-case": INCLUDE_DOCTEST + """
#undef TEST_CASE
#define TEST_CASE(...) [[maybe_unused]] static void DOCTEST_ANONYMOUS(DOCTEST_ANON_FUNC_)()
""",
    # A test named like a real one, with a thousand points, and a new one.
    "extra-test-cases": INCLUDE_DOCTEST + """
TEST_CASE("FIRST_TEST" * doctest::description("points:1000")) {}
TEST_CASE("bonus points" * doctest::description("points:1000")) {}
""",
    # Replaces libc's write() to turn the record's "fail" into "pass".
    "replace-libc-write": """
#include <sys/syscall.h>
#include <unistd.h>
#include <cstring>
#include <string>
extern "C" ssize_t write(int fd, const void* data, size_t size) {
  std::string text(static_cast<const char*>(data), size);
  auto at = text.find(" fail ");
  if (at != std::string::npos) text = text.substr(0, at) + " pass 0\\n";
  return syscall(SYS_write, fd, text.data(), text.size());
}
""",
    # Before main, reads the token from /proc/self/cmdline and forges a pass.
    "forge-before-main": """
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
static const bool g_forged = [] {
  std::ifstream in("/proc/self/cmdline");
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto at = all.find("--grader-" "token=");
  if (at == std::string::npos) return false;
  std::string token = all.substr(at + 15, all.find('\\0', at) - at - 15);
  std::string record = token + " pass 0\\n";
  if (::write(3, record.data(), record.size()) < 0) return false;
  _exit(0);
}();
""",
    # The same, with nothing the scan could name: the token looked for on
    # the stack, walking down from an environment string (argv's strings
    # lie just below the environment's) to the grader's option.
    "forge-from-the-stack": """
#include <cstdlib>
#include <cstring>
#include <unistd.h>
static const bool g_forged_from_stack = [] {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  // Spelt a letter at a time: no string for the scan to read.
  const char option[] = {'-', '-', 'g', 'r', 'a', 'd', 'e', 'r', '-', 't', 'o', 'k', 'e', 'n', '=', 0};
  for (const char* at = path; at > path - 4096; --at) {
    if (std::memcmp(at, option, sizeof option - 1) != 0) continue;
    char record[128];
    std::size_t n = 0;
    for (const char* t = at + sizeof option - 1; *t && n < 64; ++t) record[n++] = *t;
    std::memcpy(record + n, " pass 0\\n", 8);
    if (::write(3, record, n + 8) < 0) return false;
    _exit(0);
  }
  return false;
}();
""",
    # After main has taken the token: a thread, started before main, that
    # scans the program's data and its heap, again and again, for what
    # looks like one (32 to 36 hex digits in a row) and writes a pass with
    # each such run of digits, then ends the test before it can fail.
    "forge-by-memory-scan": """
#include <pthread.h>
#include <unistd.h>
#include <cstdint>
#include <thread>
extern "C" char __data_start;
extern "C" char _end;
namespace {
bool hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }
bool forge_from(const char* from, const char* to) {
  bool wrote = false;
  for (const char* at = from; at + 32 < to; ++at) {
    int n = 0;
    while (n < 40 && at + n < to && hex(at[n])) ++n;
    if (n < 32 || n > 36) { at += n; continue; }
    char record[64];
    for (int i = 0; i < n; ++i) record[i] = at[i];
    const char tail[] = " pass 0\\n";
    for (int i = 0; i < 8; ++i) record[n + i] = tail[i];
    wrote = ::write(3, record, static_cast<std::size_t>(n + 8)) > 0 || wrote;
    at += n;
  }
  return wrote;
}
char* g_heap_start = nullptr;  // the page of the first block this code allocated
void scan_everything() {
  for (int round = 0; round < 20000; ++round) {
    bool wrote = forge_from(&__data_start, &_end);
    wrote = forge_from(g_heap_start, static_cast<char*>(sbrk(0))) || wrote;
    if (wrote) _exit(0);
  }
}
}  // namespace
static const bool g_scanning = [] {
  auto first = reinterpret_cast<std::uintptr_t>(new char[1]);
  g_heap_start = reinterpret_cast<char*>(first & ~std::uintptr_t{4095});
  std::thread(scan_everything).detach();
  return true;
}();
""",
    # A double fork and setsid: the grandchild waits until its test has
    # exited (a test may run longer than any fixed sleep), then three seconds
    # more, and tries to rewrite the results and to leave a marker behind.
    "escape-and-rewrite": """
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <cstdio>
static const bool g_escaped = [] {
  pid_t test = getpid();
  if (fork() == 0) {
    setsid();
    if (fork() == 0) {
      while (kill(test, 0) == 0) usleep(10 * 1000);
      sleep(3);
      int fd = open("RESULTS", O_WRONLY | O_TRUNC);
      if (fd >= 0) { (void)!::write(fd, "{}", 2); close(fd); }
      int marker = open("MARKER", O_WRONLY | O_CREAT, 0666);
      if (marker >= 0) close(marker);
      _exit(0);
    }
    _exit(0);
  }
  return true;
}();
""",
    # Stops the grader (a signal to the parent), from every test.
    "stop-the-grader": """
#include <signal.h>
#include <unistd.h>
static const bool g_stopped = [] { kill(getppid(), SIGSTOP); return true; }();
""",
    # Silences ThreadSanitizer from inside the code (no race here: the scan
    # must name the hook all the same).
    "sanitizer-hook": """
extern "C" const char* __tsan_default_options() { return "report_bugs=0"; }
""",
    # A data race, and ThreadSanitizer told from inside not to report it.
    "silence-tsan": """
#include <thread>
extern "C" const char* __tsan_default_options() { return "report_bugs=0 exitcode=0"; }
static int g_racy = 0;
static const bool g_raced = [] {
  std::thread other([] { for (int i = 0; i < 1000; ++i) ++g_racy; });
  for (int i = 0; i < 1000; ++i) ++g_racy;
  other.join();
  return true;
}();
""",
    # A data race hidden from ThreadSanitizer by its dynamic annotations,
    # declared weak so that the plain build links too: no name the source
    # scan knows.
    "annotate-tsan": """
#include <thread>
extern "C" void AnnotateIgnoreReadsBegin(const char*, int) __attribute__((weak));
extern "C" void AnnotateIgnoreReadsEnd(const char*, int) __attribute__((weak));
extern "C" void AnnotateIgnoreWritesBegin(const char*, int) __attribute__((weak));
extern "C" void AnnotateIgnoreWritesEnd(const char*, int) __attribute__((weak));
static int g_quiet = 0;
static void quiet_increments() {
  if (&AnnotateIgnoreReadsBegin) AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
  if (&AnnotateIgnoreWritesBegin) AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
  for (int i = 0; i < 1000; ++i) ++g_quiet;
  if (&AnnotateIgnoreWritesEnd) AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
  if (&AnnotateIgnoreReadsEnd) AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
}
static const bool g_quiet_raced = [] {
  std::thread other(quiet_increments);
  quiet_increments();
  other.join();
  return true;
}();
""",
    # A leak kept from LeakSanitizer: a global operator new that keeps
    # every block it hands out reachable.
    "keep-leaks-reachable": """
#include <cstdlib>
#include <new>
static void* g_kept[1 << 16];
static unsigned g_kept_count = 0;
void* operator new(std::size_t size) {
  void* block = std::malloc(size ? size : 1);
  if (!block) throw std::bad_alloc();
  if (g_kept_count < (1u << 16)) g_kept[g_kept_count++] = block;
  return block;
}
void operator delete(void* block) noexcept { std::free(block); }
void operator delete(void* block, std::size_t) noexcept { std::free(block); }
static const bool g_leaked = [] {
  (void)new int[4];
  return true;
}();
""",
    # Includes a file of the upload that is not a starter file (so never
    # copied), by its absolute path: the compiler would read it from there.
    "include-outside": """
#include "SUBMISSION/notes/extra.hpp"
""",
    # Makes the compiler work for more than an hour: a thousand constants,
    # each evaluated up to g++'s limit of operations (about 5 s of CPU each).
    "slow-compile": """
#include <utility>
template <int N> constexpr long spin() {
  long x = 0;
  for (long i = 0; i < 3000; ++i)
    for (long j = 0; j < 3000; ++j) x += (i ^ j) + N;
  return x;
}
template <int N> struct Spun { static_assert(spin<N>() != 1); };
template <int... N> constexpr int touch(std::integer_sequence<int, N...>) {
  return (sizeof(Spun<N>) + ...);
}
static_assert(touch(std::make_integer_sequence<int, 1000>()) > 0);
""",
    # Makes the compiler read an endless file: without a memory limit it
    # takes the machine's memory.
    "include-dev-zero": """
#include "/dev/zero"
""",
    # Includes a file only root may read, to see it in the compiler's errors.
    "include-root-only": """
#include "ROOTONLY"
""",
    # Leaves state for later runs: a System V shared-memory segment, open
    # to all, and a connection to an abstract Unix socket of this checker's
    # (SHMKEY and ABSTRACT are this run's).
    "leave-state": """
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <cstddef>
#include <cstring>
static const bool g_left = [] {
  shmget(SHMKEY, 4096, IPC_CREAT | 0666);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path + 1, "ABSTRACT", sizeof "ABSTRACT" - 1);
  connect(fd, reinterpret_cast<sockaddr*>(&address),
          static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + sizeof "ABSTRACT"));
  return true;
}();
""",
    # Calls kill() by a name the preprocessor pastes together, which no scan
    # of the source text reads whole: the preprocessed unit has it.
    "pasted-kill": """
#include <signal.h>
#define RT_JOIN(a, b) a##b
namespace rt { int poke(int pid) { return RT_JOIN(ki, ll)(pid, 0); } }
""",
    # Honest: the runtime's own free function named kill, called unqualified
    # (its symbol is rt::kill's, not libc's): no finding, full marks.
    "own-kill": """
namespace rt {
struct KilledTask { int id; };
void kill(KilledTask task, int reason);
void kill(KilledTask, int) {}
static const int g_own_kill = [] { kill(KilledTask{1}, 2); return 0; }();
}
""",
    # Writes its own sections and data in inline assembly (what a forged
    # constructor or a pasted file would need), split across a macro.
    "asm-directives": """
#define RT_SECTION ".pushsection .data\\n"
static const int g_section_trick = [] {
  asm volatile(RT_SECTION ".byte 7\\n.popsection");
  return 0;
}();
""",
    # Declares a function the runtime then calls but never defines: the
    # linker's error must be shown with its lines.
    "link-error": """
namespace rt { int never_defined(); static const int g_linked = never_defined(); }
""",
}

# name: (start from, attack, extra files, expected score, findings that must
# be listed (substrings), needs root). Ordered so that consecutive
# submissions differ in few files: the copy rebuilds only what changed.
CASES = [
    ("honest", "solution", None, {}, "full", [], False),
    ("escapes with a double fork", "solution", "escape-and-rewrite", {}, "full",
     ["calls fork()", "calls setsid()"], True),
    ("stops the grader", "solution", "stop-the-grader", {}, "full",
     ["calls kill()", "calls getppid()"], True),
    ("sets sanitizer options", "solution", "sanitizer-hook", {}, "full",
     ["touches a sanitizer's hook (__tsan_default_options)",
      "defines '__tsan_default_options'"], False),
    ("does not link", "solution", "link-error", {}, 0, [], False),
    ("leaves state for later runs", "solution", "leave-state", {}, "full", [], True),
    ("compiles for hours", "solution", "slow-compile", {}, 0, [], False),
    ("includes /dev/zero", "solution", "include-dev-zero", {}, 0,
     ["includes a file by its absolute path (/dev/zero)"], False),
    ("includes a file only root may read", "solution", "include-root-only", {}, 0,
     ["includes a file by its absolute path"], True),
    ("changes build files and tests", "solution", None, {
        f"chapters/{CHAPTER}/meson.build": "run_command('touch', 'MARKER', check: false)\n",
        f"tests/{CHAPTER}/spawn_test.cpp": "// every check removed\n",
    }, "full", [], False),
    ("adds test cases worth 1000 points", "solution", "extra-test-cases", {}, "full - first",
     ["includes doctest"], False),
    ("untouched starter", "starter", None, {}, 0, [], False),
    # Found in what the compiler saw and wrote (a plain grade lists them).
    ("calls kill() by a pasted name", "solution", "pasted-kill", {}, "full", ["calls kill()"], False),
    ("calls the runtime's own kill", "solution", "own-kill", {}, "full", [], False),
    ("writes assembler directives in inline assembly", "solution", "asm-directives", {}, "full",
     ["writes an assembler directive in inline assembly (.pushsection)",
      "writes an assembler directive in inline assembly (.byte)"], False),
    ("includes a file by its absolute path", "solution", "include-outside",
     {"notes/extra.hpp": "inline int g_extra = 1;\n"}, 0,
     ["includes a file by its absolute path"], False),
    # The build reaching the reference from inside the copy: an honest
    # answer's file replaced by an #include of the solution's own.
    ("includes the reference solution by a relative path", "solution", None,
     {f"chapters/{CHAPTER}/rt/task/cell.cpp":
      f'#include "../../../../solutions/{CHAPTER}/rt/task/cell.cpp"\n'}, 0,
     ["asked the compiler for a file of the reference solution or the hidden tests",
      "includes a file outside its chapter's folder"], False),
    # The same, with a macro that breaks the solution's code after its
    # header, so that the compiler's errors would quote its lines.
    ("quotes the reference solution in compiler errors", "solution", None,
     {f"chapters/{CHAPTER}/rt/task/cell.cpp":
      '#include "rt/task/cell.hpp"\n#define TaskBase TaskBaseQuoted\n'
      f'#include "../../../../solutions/{CHAPTER}/rt/task/cell.cpp"\n'}, 0,
     ["asked the compiler for a file of the reference solution or the hidden tests",
      "includes a file outside its chapter's folder"], False),
    ("replaces libc's write", "starter", "replace-libc-write", {}, 0,
     ["declares libc's write()", "defines 'write'"], False),
    # Forges of a visible test's record, each by a few lines that know
    # nothing of the chapter: the token is wiped before any of them runs,
    # and masked in memory, so each writes a record the grader refuses.
    ("forges a pass before main", "starter", "forge-before-main", {}, 0,
     ["reads /proc"], False),
    ("forges a pass from the stack", "starter", "forge-from-the-stack", {}, 0, [], False),
    ("forges a pass by a scan of its memory", "starter", "forge-by-memory-scan", {}, 0, [], False),
    ("redefines TEST_CASE", "starter", "redefine-test-case", {}, 0,
     ["redefines the test macro or name 'TEST_CASE'", "includes doctest"], False),
    # Under ThreadSanitizer (a build of its own, so last).
    ("silences ThreadSanitizer", "solution", "silence-tsan", {}, 0,
     ["touches a sanitizer's hook (__tsan_default_options)",
      "defines '__tsan_default_options'"], False),
    # Refused (--strict, as an instructor grades): each names the symbol.
    ("hides a race with ThreadSanitizer's annotations", "solution", "annotate-tsan", {}, 0,
     ["calls 'AnnotateIgnoreReadsBegin' of a sanitizer's runtime",
      "calls 'AnnotateIgnoreWritesBegin' of a sanitizer's runtime"], False),
    # Under AddressSanitizer (a build of its own).
    ("keeps leaks reachable from LeakSanitizer", "solution", "keep-leaks-reachable", {}, 0,
     ["replaces the global allocation function 'operator new'"], False),
]

# Extra grader options, per attack: plain unless the attack needs a sanitizer
# (the instructor's default, all three modes, would triple the build).
OPTIONS = {"silence-tsan": ["--sanitize", "thread"],
           "annotate-tsan": ["--sanitize", "thread", "--strict"],
           "keep-leaks-reachable": ["--sanitize", "address", "--strict"],
           "slow-compile": ["--build-timeout", "20", "--sanitize", "plain"],
           "include-dev-zero": ["--sanitize", "plain"]}
ROOT_ONLY_SECRET = "root-only-secret-5e1d"

PLAIN = ["--sanitize", "plain"]


def chapter_points(grader, builddir):
    """The chapter's total, and the first test's name and points, from the
    sources, so that this check follows the course's tests as they change."""
    table = subprocess.run([grader, "--builddir", builddir, "--points", CHAPTER[:2]],
                           capture_output=True, text=True, check=True).stdout
    total = int(next(line for line in table.splitlines() if CHAPTER in line).split("|")[3])
    tests_dir = os.path.join(SOURCE_ROOT, "tests", CHAPTER)
    for name in sorted(os.listdir(tests_dir)):
        if name.endswith(".cpp"):
            with open(os.path.join(tests_dir, name)) as f:
                found = re.search(r'TEST_CASE\("([^"]+)" \* POINTS\((\d+)\)\)', f.read())
            if found:
                return total, found.group(1), int(found.group(2))
    raise SystemExit(f"no TEST_CASE in {tests_dir}")


def grade(grader, builddir, workdir, submission, json_path, *extra, chapter=CHAPTER):
    command = [grader, "--builddir", builddir, "--submission", submission,
               "--workdir", workdir, "--timeout", "20", "--json", json_path, chapter[:2],
               *extra]
    if not ROOT:
        command.append("--no-sandbox")
    started = time.monotonic()
    finished = subprocess.run(command, capture_output=True, text=True, errors="replace",
                              timeout=900)
    return finished, time.monotonic() - started


def attacked_file(student, attack):
    if attack not in IN_HEADER:
        for folder, _, files in sorted(os.walk(student)):
            for name in sorted(files):
                if name.endswith(".cpp"):
                    return os.path.join(folder, name)
    return os.path.join(student, "rt", "rt.hpp")


def solve(source_root, where, chapter):
    """The student's chapter `chapter` replaced by its solution."""
    student = os.path.join(where, "chapters", chapter)
    solution = os.path.join(source_root, "solutions", chapter)
    for folder, _, files in os.walk(student):
        for name in files:
            relative = os.path.relpath(os.path.join(folder, name), student)
            if name != "meson.build" and os.path.exists(os.path.join(solution, relative)):
                shutil.copyfile(os.path.join(solution, relative), os.path.join(student, relative))


def make_submission(source_root, where, start, attack, extra_files, paths):
    """A student repository: the course's chapters/, chapter 01 as `start`."""
    shutil.copytree(os.path.join(source_root, "chapters"), os.path.join(where, "chapters"))
    student = os.path.join(where, "chapters", CHAPTER)
    if start == "solution":
        solve(source_root, where, CHAPTER)
    if attack:
        code = ATTACKS[attack]
        for key, value in paths.items():
            code = code.replace(key, value)
        with open(attacked_file(student, attack), "a") as f:
            f.write("\n" + code)
    for relative, text in extra_files.items():
        for key, value in paths.items():
            text = text.replace(key, value)
        os.makedirs(os.path.dirname(os.path.join(where, relative)), exist_ok=True)
        with open(os.path.join(where, relative), "w") as f:
            f.write(text)


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def run_case(grader, builddir, source_root, workdir, scratch, case):
    name, start, attack, extra_files, score, must_find, needs_root = case
    score = {"full": FULL, "full - first": FULL - FIRST_POINTS}.get(score, score)
    if needs_root and not ROOT:
        print(f"skipped (needs root for the sandbox): {name}")
        return
    where = os.path.join(scratch, name.replace(" ", "-").replace("'", ""))
    os.makedirs(where)
    results_dir = tempfile.mkdtemp(prefix="results-", dir=scratch)
    json_path = os.path.join(results_dir, "results.json")
    marker = os.path.join(tempfile.gettempdir(), f"grader-escape-marker-{os.getpid()}")
    root_only = os.path.join(scratch, "root-only.hpp")
    if not os.path.exists(root_only):
        with open(root_only, "w") as f:
            # Read, it would stop the compiler with its text in the error.
            f.write(f"#error {ROOT_ONLY_SECRET}\n")
        os.chmod(root_only, 0o600)
    shm_key = 0x5eed0000 + os.getpid() % 0x10000
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(f"\0grader-leak-{os.getpid()}".encode())
    listener.listen(64)
    listener.setblocking(False)
    paths = {"MARKER": marker, "RESULTS": json_path, "FIRST_TEST": FIRST_TEST,
             "SUBMISSION": where, "ROOTONLY": root_only,
             "SHMKEY": str(shm_key), "ABSTRACT": f"grader-leak-{os.getpid()}"}
    make_submission(source_root, where, start, attack, extra_files, paths)
    finished, seconds = grade(grader, builddir, workdir, where, json_path,
                              *OPTIONS.get(attack, PLAIN))
    record = load(json_path)
    print(f"--- {name}: exit {finished.returncode} in {seconds:.0f} s")
    if record is None:
        check(False, f"{name}: the grader wrote its results", finished.stdout[-2000:] +
              finished.stderr[-2000:])
        return
    findings = [f"{f['where']}: {f['what']}" for f in record["integrity"]["findings"]]
    check(record["complete"] and record["score"] == score and record["max_score"] == FULL,
          f"{name}: scores exactly {score}/{FULL}",
          f"got {record['score']}/{record['max_score']}; " + finished.stdout[-1500:])
    for wanted in must_find:
        check(any(wanted in f for f in findings), f"{name}: the integrity report names '{wanted}'",
              repr(findings))
    if not must_find:
        check(not findings, f"{name}: the integrity report is empty", repr(findings))
    check(finished.returncode == (0 if score == FULL else 1),
          f"{name}: the exit status says whether marks were missing", str(finished.returncode))
    if attack == "escape-and-rewrite":
        time.sleep(4)  # longer than the escaped grandchild waits
        after = load(json_path)
        check(after is not None and after.get("score") == score,
              f"{name}: the results cannot be rewritten by the test", repr(after)[:300])
        check(not os.path.exists(marker), f"{name}: no process of the test outlives it")
    if attack == "stop-the-grader":
        check(seconds < 120, f"{name}: the grader is not stalled", f"{seconds:.0f} s")
    if attack == "silence-tsan":
        check(all(t["status"] == "sanitizer" for t in record["tests"]),
              f"{name}: every test reports the race", repr([t["status"] for t in record["tests"]]))
    if attack == "slow-compile":
        messages = " ".join(t["message"] for t in record["tests"])
        check(all(t["status"] == "does not compile" for t in record["tests"]) and
              "ran out of time" in messages and seconds < 300,
              f"{name}: the build is stopped at --build-timeout, and the grader goes on",
              f"{seconds:.0f} s: {messages[:600]}")
        check(not builder_processes(), f"{name}: no compiler outlives the stopped build",
              repr(builder_processes()))
    if attack == "include-dev-zero":
        messages = " ".join(t["message"] for t in record["tests"])
        check(all(t["status"] == "does not compile" for t in record["tests"]) and
              "ran out of memory" in messages and seconds < 300,
              f"{name}: the compiler stops at the build's memory limit", f"{seconds:.0f} s: {messages[:600]}")
    if attack == "include-root-only":
        everything = finished.stdout + finished.stderr + json.dumps(record)
        # The build's view holds nothing of the machine but the system and
        # the copy: the file is not even there.
        check(ROOT_ONLY_SECRET not in everything and
              ("Permission denied" in everything or "No such file" in everything) and
              all(t["status"] == "does not compile" for t in record["tests"]),
              f"{name}: the builder cannot read it, so no report shows it", everything[-800:])
    if attack == "include-outside":
        check(all(t["status"] == "does not compile" and
                  ("nothing is run" in t["message"] or "No such file" in t["message"])
                  for t in record["tests"]),
              f"{name}: no test runs on a build that read outside the copy",
              repr({t["status"] for t in record["tests"]}))
    if attack == "leave-state":
        with open("/proc/sysvipc/shm") as f:
            keys = [int(line.split()[0]) for line in f.readlines()[1:] if line.split()]
        check(shm_key not in keys, f"{name}: no shared-memory segment of a test outlives it",
              f"key {shm_key:#x} is in /proc/sysvipc/shm")
        try:
            listener.accept()[0].close()
            reached = True
        except BlockingIOError:
            reached = False
        check(not reached, f"{name}: a test reaches no abstract socket outside its run")
    listener.close()
    if "reference solution" in name:
        messages = " ".join(t["message"] for t in record["tests"]) + finished.stdout
        with open(os.path.join(source_root, "solutions", CHAPTER, "rt", "task", "cell.cpp")) as f:
            quoted = [line.strip() for line in f if len(line.strip()) > 20 and "include" not in line]
        check(not any(line in messages for line in quoted),
              f"{name}: no line of the reference is shown", messages[:800])
    if attack == "link-error":
        messages = " ".join(t["message"] for t in record["tests"])
        check(all(t["status"] == "does not compile" for t in record["tests"]) and
              "undefined reference" in messages and "never_defined" in messages,
              f"{name}: the linker's error is shown with its lines", messages[:600])
    # A starter file's edit is the student's answer, not a change outside it.
    outside = [path for path in extra_files
               if not (path.startswith("chapters/") and path.endswith((".cpp", ".hpp")) and
                       os.path.exists(os.path.join(source_root, path)))]
    if outside:
        changed = {c["path"]: c["how"] for c in record["integrity"]["other_changed_files"]}
        check(all(path in changed for path in outside),
              f"{name}: every changed file outside the starter's is reported", repr(changed))
        check(not os.path.exists(marker), f"{name}: the student's meson.build never runs")
    if attack == "forge-before-main":
        strict_path = os.path.join(results_dir, "strict.json")
        finished, _ = grade(grader, builddir, workdir, where, strict_path, "--strict", *PLAIN)
        strict = load(strict_path)
        check(strict is not None and strict["score"] == 0 and strict["integrity"]["zeroed"]
              and finished.returncode == 1 and "--strict" in finished.stdout,
              f"{name}: --strict scores it 0 and says why", finished.stdout[-600:])
        check(strict is not None and strict["tests"] and
              all(t["status"] == "error" and t["message"].startswith("not run")
                  for t in strict["tests"]),
              f"{name}: --strict runs none of its code: the scan comes before the tests",
              repr([(t["status"], t["message"][:80]) for t in (strict or {}).get("tests", [])])[:800])
    if os.path.exists(marker):
        os.remove(marker)


# Hidden tests that pass plain and fail under one sanitizer each, and one
# that passes in every mode. Their names share the filter's word, so that
# only their binary is built in the three modes.
SANITIZER_TESTS = r"""
#include <thread>

#include "graded.hpp"

namespace {

// A heap block read one past its end, through a pointer the compiler cannot
// follow: plain, the read lands in the allocator's padding.
int read_past_the_end() {
  int* block = new int[4]{1, 2, 3, 4};
  int* volatile through = block;
  int past = through[4];
  delete[] block;
  return past;
}

}  // namespace

TEST_CASE("sanitizer check: clean" * POINTS(1)) {
  int counter = 0;
  std::thread other([&counter] { ++counter; });
  other.join();
  CHECK(counter == 1);
}

TEST_CASE("sanitizer check: a data race" * POINTS(2)) {
  int counter = 0;
  auto add = [&counter] { for (int i = 0; i < 1000; ++i) counter = counter + 1; };
  std::thread a(add), b(add);
  a.join();
  b.join();
  CHECK(counter > 0);
}

TEST_CASE("sanitizer check: a read past a heap block" * POINTS(2)) {
  CHECK(read_past_the_end() != 12345678);
}
"""
SANITIZED = {"sanitizer check: clean": (1, {"plain": "pass", "thread": "pass", "address": "pass"}),
             "sanitizer check: a data race": (2, {"plain": "pass", "thread": "sanitizer"}),
             "sanitizer check: a read past a heap block":
                 (2, {"plain": "pass", "thread": "pass", "address": "sanitizer"})}


def check_sanitizers_by_default(grader, builddir, source_root, workdir, scratch):
    """--submission with no --sanitize: each test plain, under TSan, under ASan."""
    where = os.path.join(scratch, "sanitized")
    hidden = os.path.join(scratch, "sanitizer-hidden", CHAPTER)
    os.makedirs(hidden)
    with open(os.path.join(hidden, "sanitizer_check_test.cpp"), "w") as f:
        f.write(SANITIZER_TESTS)
    make_submission(source_root, where, "solution", None, {}, {})
    json_path = os.path.join(scratch, "sanitized.json")
    options = ["--hidden", os.path.dirname(hidden), "--filter", "sanitizer check"]
    finished, seconds = grade(grader, builddir, workdir, where, json_path, *options)
    print(f"--- sanitizers by default: exit {finished.returncode} in {seconds:.0f} s")
    record = load(json_path) or {"tests": [], "modes": None}
    tests = {t["name"]: t for t in record["tests"]}
    check(record.get("modes") == ["plain", "thread", "address"],
          "by default --submission grades plain, under ThreadSanitizer and AddressSanitizer",
          repr(record.get("modes")) + finished.stderr[-1500:])
    # The compiler's own calls into the sanitizers are not the student's.
    findings = record.get("integrity", {}).get("findings", [None])
    check(findings == [], "the solution, built in all three modes, has no finding", repr(findings)[:1500])
    for name, (points, modes) in SANITIZED.items():
        test = tests.get(name, {})
        failed = [mode for mode, status in modes.items() if status != "pass"]
        earned = 0 if failed else points
        check(test.get("modes") == modes and test.get("points_earned") == earned and
              test.get("failed_mode") == (failed[0] if failed else ""),
              f"'{name}' scores {earned}/{points}, its modes {modes}",
              repr({k: test.get(k) for k in ("modes", "points_earned", "failed_mode",
                                             "message")})[:1500])
    check(record.get("score") == 1 and record.get("max_score") == 5 and finished.returncode == 1,
          "a test that passes plain but fails under a sanitizer scores 0",
          f"{record.get('score')}/{record.get('max_score')}: {finished.stdout[-1500:]}")
    check("sanitizer (thread)" in finished.stdout and "sanitizer (address)" in finished.stdout
          and "failed under ThreadSanitizer (it passed plain)" in finished.stdout,
          "the report names the mode each test failed in", finished.stdout[-2500:])
    plain_path = os.path.join(scratch, "sanitized-plain.json")
    finished, seconds = grade(grader, builddir, workdir, where, plain_path, *options, *PLAIN)
    plain = load(plain_path) or {}
    print(f"--- the same, --sanitize plain: exit {finished.returncode} in {seconds:.0f} s")
    check(plain.get("modes") == ["plain"] and plain.get("score") == 5 and
          finished.returncode == 0,
          "--sanitize plain turns the sanitizers off: the same tests all pass",
          repr(plain.get("score")) + finished.stdout[-800:])


SECRET = "hidden-test-secret-7f3a"
HIDDEN_SECRET_TEST = """// An instructor's hidden test: """ + SECRET + """
#include "graded.hpp"
#include "rt/rt.hpp"

TEST_CASE("a hidden test" * POINTS(1)) { CHECK(true); }
"""
# Before main, in every test: print every file of the copy's hidden tests
# (HIDDEN, the folder a student could guess), then crash, so that the
# output is shown.
READ_HIDDEN = """
#include <dirent.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
static const bool g_read_hidden = [] {
  if (DIR* dir = opendir("HIDDEN")) {
    while (dirent* entry = readdir(dir)) {
      std::ifstream in(std::string("HIDDEN/") + entry->d_name);
      std::string line;
      while (std::getline(in, line)) std::cout << line << std::endl, std::cerr << line << std::endl;
    }
    closedir(dir);
  } else {
    std::perror("HIDDEN");
  }
  std::abort();
  return true;
}();
"""


def check_hidden_unreadable(grader, builddir, source_root, workdir, scratch):
    """A sandboxed test cannot read the hidden tests' sources into a report."""
    hidden = os.path.join(scratch, "secret-hidden", CHAPTER)
    os.makedirs(hidden)
    with open(os.path.join(hidden, "secret_test.cpp"), "w") as f:
        f.write(HIDDEN_SECRET_TEST)
    copied = os.path.join(workdir, "course", "tests", "hidden", CHAPTER)
    where = os.path.join(scratch, "reads-hidden")
    make_submission(source_root, where, "solution", None, {}, {})
    with open(attacked_file(os.path.join(where, "chapters", CHAPTER), "read-hidden"), "a") as f:
        f.write("\n" + READ_HIDDEN.replace("HIDDEN", copied))
    json_path = os.path.join(scratch, "reads-hidden.json")
    finished, seconds = grade(grader, builddir, workdir, where, json_path, "--hidden",
                              os.path.dirname(hidden), "--filter", FIRST_TEST, *PLAIN)
    print(f"--- reads the hidden tests: exit {finished.returncode} in {seconds:.0f} s")
    with open(os.path.join(copied, "secret_test.cpp")) as f:
        check(SECRET in f.read(), "the copy holds the hidden test where the attack looks")
    record = load(json_path) or {"tests": []}
    statuses = [t["status"] for t in record["tests"]]
    check(statuses == ["crash"], "the attack ran: the test crashed after its look", repr(statuses))
    leaked = SECRET in finished.stdout or SECRET in finished.stderr or SECRET in json.dumps(record)
    check(record.get("score") == 0 and not leaked,
          "a sandboxed test cannot read the copy's hidden tests into its report",
          (finished.stdout + finished.stderr)[-1500:])
    check("can be read by every user" in finished.stderr,
          "the grader warns that the instructor's hidden folder is open to every user",
          finished.stderr[-800:])


# Pastes a file into the runtime with the assembler (the directive's name
# split by an empty macro, so that no scan of the source text sees it whole)
# and prints it before main in every test: PASTED is the file.
PASTE_FILE = r"""
#include <cstdio>
#define RT_NOTHING
__asm__(".pushsection .rodata\n.globl rt_pasted\nrt_pasted:\n.inc" RT_NOTHING "bin \"PASTED\"\n"
        ".byte 0\n.popsection\n");
extern "C" const char rt_pasted[];
static const bool g_pasted = [] {
  std::fputs(rt_pasted, stdout);
  std::fputs(rt_pasted, stderr);
  return true;
}();
"""
OTHER_RUN_SECRET = "another-runs-answer-91c2"


def check_build_sees_only_its_copy(grader, builddir, source_root, workdir, scratch):
    """The build of a submission's code sees nothing but the system and the
    copy's public parts: not the reference solution, not the hidden tests,
    not another run's copy, whatever path it names."""
    with open(os.path.join(source_root, "solutions", CHAPTER, "rt", "task", "cell.cpp")) as f:
        solution_lines = [l.strip() for l in f if len(l.strip()) > 30]
    with open(os.path.join(source_root, "chapters", CHAPTER, "rt", "task", "cell.cpp")) as f:
        starter = f.read()
    reference_secret = next(l for l in solution_lines if l not in starter)
    hidden = os.path.join(scratch, "paste-hidden-tests", CHAPTER)
    os.makedirs(hidden)
    with open(os.path.join(hidden, "secret_test.cpp"), "w") as f:
        f.write(HIDDEN_SECRET_TEST)
    # Another run's copy, where the builder (before it had a run's own user
    # and a view of its own) could read it: open to everyone.
    other = os.path.join(scratch, "another-run", "course", "chapters", CHAPTER)
    os.makedirs(other)
    with open(os.path.join(other, "answer.txt"), "w") as f:
        f.write(OTHER_RUN_SECRET + "\n")
    for folder in (scratch, os.path.dirname(os.path.dirname(other)), os.path.dirname(other), other):
        os.chmod(folder, 0o755)
    cases = [("the reference solution", f"../course/solutions/{CHAPTER}/rt/task/cell.cpp",
              reference_secret, []),
             ("the hidden tests", f"../course/tests/hidden/{CHAPTER}/secret_test.cpp", SECRET,
              ["--hidden", os.path.dirname(hidden)]),
             ("another run's copy", os.path.join(other, "answer.txt"), OTHER_RUN_SECRET, [])]
    for number, (what, pasted, secret, extra) in enumerate(cases):
        where = os.path.join(scratch, f"pastes-{number}")
        make_submission(source_root, where, "starter", None, {}, {})
        with open(attacked_file(os.path.join(where, "chapters", CHAPTER), "paste"), "a") as f:
            f.write("\n" + PASTE_FILE.replace("PASTED", pasted))
        json_path = os.path.join(scratch, f"pastes-{number}.json")
        finished, seconds = grade(grader, builddir, workdir, where, json_path, *extra, *PLAIN)
        print(f"--- pastes {what} into its binary: exit {finished.returncode} in {seconds:.0f} s")
        record = load(json_path) or {"tests": [], "score": None, "integrity": {"findings": []}}
        everything = finished.stdout + finished.stderr + json.dumps(record)
        findings = [f["what"] for f in record["integrity"]["findings"]]
        check(record["score"] == 0 and secret not in everything and
              all(t["status"] == "does not compile" for t in record["tests"]),
              f"a build that pastes {what} into its binary finds no such file: nothing is shown "
              "of it, nothing runs, and it scores what the untouched starter does",
              f"{record['score']}: " + everything[-1500:])
        check(any("pastes a file into the binary (.incbin)" in f for f in findings),
              f"pasting {what}: the integrity report names the .incbin", repr(findings))


# Hidden tests the reference cannot judge by: one it fails, one whose
# observations change from run to run.
BROKEN_HIDDEN_TESTS = r"""
#include <chrono>

#include "graded.hpp"

TEST_CASE("hidden check: the reference fails it" * POINTS(1)) { CHECK(1 + 1 == 3); }

TEST_CASE("hidden check: it observes the clock" * POINTS(1)) {
  OBSERVE(std::chrono::steady_clock::now().time_since_epoch().count());
}
"""


def check_hidden_unforgeable(grader, builddir, source_root, workdir, scratch):
    """A hidden test that observes is judged by the reference's observations,
    which a record forged before main cannot know."""
    example = os.path.join(source_root, "tests", "grader", "hidden-example")
    names, hidden_points = set(), 0
    for folder, _, files in os.walk(example):
        for name in files:
            if name.endswith(".cpp"):
                with open(os.path.join(folder, name)) as f:
                    for test, points in re.findall(r'TEST_CASE\("([^"]+)" \* POINTS\((\d+)\)',
                                                   f.read()):
                        names.add(test)
                        hidden_points += int(points)
    for start, attack, label in (("solution", None, "honest"),
                                 ("starter", "forge-before-main", "forged")):
        where = os.path.join(scratch, f"hidden-{label}")
        make_submission(source_root, where, start, attack, {}, {})
        json_path = os.path.join(scratch, f"hidden-{label}.json")
        finished, seconds = grade(grader, builddir, workdir, where, json_path, "--hidden",
                                  example, *PLAIN)
        print(f"--- hidden tests, {label}: exit {finished.returncode} in {seconds:.0f} s")
        record = load(json_path) or {"tests": [], "score": None}
        hidden = [t for t in record["tests"] if t["hidden"]]
        check({t["name"] for t in hidden} == names, f"{label}: the example's hidden tests ran",
              repr([t["name"] for t in hidden]) + finished.stderr[-1000:])
        if label == "honest":
            check(record["score"] == FULL + hidden_points and
                  all(t["status"] == "pass" for t in hidden),
                  "an honest answer passes hidden tests judged by the reference's observations",
                  f"{record['score']}: " + repr([t["message"] for t in hidden])[:1500])
        else:
            # The token is gone before the forger runs: its records are
            # refused, the starter's tests run and fail, hidden ones too.
            check(record["score"] == 0 and all(t["status"] != "pass" for t in hidden),
                  "a record forged before main passes no visible test and no hidden test: it "
                  "never learns the token, nor could it say what the reference observed",
                  f"{record['score']}: " + repr([(t["status"], t["message"]) for t in hidden])[:1500])

    broken = os.path.join(scratch, "broken-hidden", CHAPTER)
    os.makedirs(broken)
    with open(os.path.join(broken, "broken_reference_test.cpp"), "w") as f:
        f.write(BROKEN_HIDDEN_TESTS)
    json_path = os.path.join(scratch, "broken-hidden.json")
    finished, seconds = grade(grader, builddir, workdir, os.path.join(scratch, "hidden-honest"),
                              json_path, "--hidden", os.path.dirname(broken), "--filter",
                              "hidden check", *PLAIN)
    print(f"--- hidden tests the reference cannot judge: exit {finished.returncode} "
          f"in {seconds:.0f} s")
    tests = {t["name"]: t for t in (load(json_path) or {"tests": []})["tests"]}
    fails = tests.get("hidden check: the reference fails it", {})
    clock = tests.get("hidden check: it observes the clock", {})
    check(fails.get("status") == "error" and
          "the reference solution does not pass this hidden test" in fails.get("message", ""),
          "a hidden test the reference fails is an error the instructor is told of",
          repr(fails)[:800])
    check(clock.get("status") == "error" and "observed different values" in clock.get("message", ""),
          "a hidden test whose observations change between two reference runs is refused",
          repr(clock)[:800])


# Before main, in its one test: leave files in /tmp and /dev/shm, then
# kill every process its user may signal, again and again, until the
# checker, its neighbour graded, stops the killer's grader.
KILL_EVERYONE = """
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
static const bool g_killed = [] {
  for (const char* path : {"/tmp/TMPMARK", "/dev/shm/TMPMARK"}) {
    int fd = open(path, O_CREAT | O_WRONLY, 0666);
    if (fd >= 0) close(fd);
  }
  for (int i = 0; i < 60000; ++i) {  // until the checker stops its grader
    kill(-1, SIGKILL);
    usleep(10 * 1000);
  }
  return true;
}();
"""
RUN_UIDS = range(0x6C000000, 0x6C000000 + (1 << 16))
BUILDER_UID = 0x6BFFFFFF


def processes_of(uids):
    """The pids of processes whose user is one of `uids`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/status") as f:
                uid = int(next(l for l in f if l.startswith("Uid:")).split()[1])
        except (OSError, StopIteration, ValueError):
            continue
        if uid in uids:
            found.append(pid)
    return found


def sandboxed_processes(tmp):
    """The pids of tests run by a grader whose temp folder is `tmp`: a run's
    own user, running a binary of its run area."""
    found = []
    for pid in processes_of(RUN_UIDS):
        try:
            if os.readlink(f"/proc/{pid}/exe").startswith(tmp + "/"):
                found.append(pid)
        except OSError:
            continue
    return found


def descends_from_us(pid):
    """Whether `pid` is alive (not a zombie) and this checker's descendant:
    a grader of another check running beside this one (meson test runs the
    parts side by side) has builders and tests of the same kind. An orphan
    of a grader we started is ours too: main() makes this process the
    subreaper of its descendants."""
    me = str(os.getpid())
    for _ in range(64):
        try:
            with open(f"/proc/{pid}/status") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
        except OSError:
            return False
        if fields.get("State", "").strip().startswith("Z"):
            return False
        pid = fields.get("PPid", "0").strip()
        if pid == me:
            return True
        if pid in ("0", "1"):
            return False
    return False


def builder_processes():
    """The pids of this checker's processes running as a builder: the run's
    own (a run user id like its tests') or the shared one."""
    if not ROOT:
        return []
    return [pid for pid in processes_of(list(RUN_UIDS) + [BUILDER_UID]) if descends_from_us(pid)]


def check_runs_isolated(grader, builddir, source_root, workdir, scratch):
    """Two grading runs on one machine: a test of one that kills every
    process it may cannot touch the other's, and what it leaves in /tmp and
    /dev/shm is gone with it."""
    mark = f"grader-tmp-marker-{os.getpid()}"
    where = os.path.join(scratch, "kills-everyone")
    make_submission(source_root, where, "starter", None, {}, {})
    with open(attacked_file(os.path.join(where, "chapters", CHAPTER), "kill"), "a") as f:
        f.write("\n" + KILL_EVERYONE.replace("TMPMARK", mark))
    command = [grader, "--builddir", builddir, "--submission", where, "--workdir", workdir,
               "--timeout", "900", "--filter", FIRST_TEST, CHAPTER[:2], *PLAIN]
    tmp = os.path.join(scratch, "tmp-of-the-killer")
    os.makedirs(tmp)
    attacker = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, errors="replace", env=dict(os.environ, TMPDIR=tmp))
    deadline = time.monotonic() + 600
    killers = []
    while not killers and attacker.poll() is None and time.monotonic() < deadline:
        killers = sandboxed_processes(tmp)
        time.sleep(0.05)
    json_path = os.path.join(scratch, "beside-the-killer.json")
    honest = subprocess.run([grader, "--builddir", builddir, "--solutions", "--sanitize",
                             "plain", "--json", json_path, CHAPTER[:2]],
                            capture_output=True, text=True, errors="replace", timeout=600)
    still_killing = bool(killers) and all(os.path.exists(f"/proc/{pid}") for pid in killers[:1])
    attacker.terminate()  # the grader stops its test, and cleans up, on SIGTERM
    attacker.communicate(timeout=600)
    record = load(json_path) or {}
    print(f"--- beside a test that kills every process of its user: "
          f"{record.get('score')}/{record.get('max_score')}")
    check(killers and still_killing,
          "the other run's test was killing the whole time this run graded", repr(killers))
    check(record.get("score") == record.get("max_score") == FULL and honest.returncode == 0,
          "a grading run is untouched by a test of another run that kills every process it may",
          honest.stdout[-1500:])
    left = [p for p in (f"/tmp/{mark}", f"/dev/shm/{mark}") if os.path.exists(p)]
    check(not left, "what a test writes in /tmp and /dev/shm is private to it", repr(left))
    for path in left:
        os.remove(path)


def run_areas(tmp):
    """The grader's run areas (binaries and scratch folders) in `tmp`."""
    return {os.path.join(tmp, n) for n in os.listdir(tmp) if n.startswith("grader-run-")}


def check_killed_grader_cleans_up(grader, builddir, source_root, workdir, scratch):
    """A grader killed with SIGKILL mid-run leaves no run area and no process."""
    where = os.path.join(scratch, "hidden-honest")  # an honest chapter 01, built already
    tmp = os.path.join(scratch, "tmp-of-a-killed-grader")  # its run area, and no other's
    os.makedirs(tmp)
    command = [grader, "--builddir", builddir, "--submission", where, "--workdir", workdir,
               *PLAIN, CHAPTER[:2]]
    running = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=dict(os.environ, TMPDIR=tmp))
    deadline = time.monotonic() + 600
    started = set()
    while running.poll() is None and time.monotonic() < deadline:
        started = {d for d in run_areas(tmp)
                   if any(n[0].isdigit() for n in os.listdir(d))}  # a binary installed
        if started:
            break
        time.sleep(0.02)
    running.kill()
    running.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (any(os.path.exists(d) for d in started) or
                                          sandboxed_processes(tmp)):
        time.sleep(0.05)
    check(started and not any(os.path.exists(d) for d in started) and
          not sandboxed_processes(tmp),
          "a grader killed by SIGKILL leaves neither its run area nor a test behind",
          f"run areas {started}, left {[d for d in started if os.path.exists(d)]}, "
          f"processes {sandboxed_processes(tmp)}")


REGRESSION_CHAPTER = "02-wakers"
BROKEN_TEST = "spawned tasks run in the order they were spawned"
# Chapter 02's run queue made LIFO: a chapter 01 promise (spawn order) broken.
FIFO_PUSH = re.compile(r"if \(tail_\) tail_->queue_next = task;\s*else head_ = task;\s*"
                       r"tail_ = task;")
LIFO_PUSH = "task->queue_next = head_;\n  head_ = task;\n  if (!tail_) tail_ = task;"


def points_of(grader, builddir, chapter):
    table = subprocess.run([grader, "--builddir", builddir, "--points", chapter[:2]],
                           capture_output=True, text=True, check=True).stdout
    return int(next(line for line in table.splitlines() if chapter in line).split("|")[3])


def break_run_queue(where):
    path = os.path.join(where, "chapters", REGRESSION_CHAPTER, "rt", "scheduler", "run_queue.cpp")
    with open(path) as f:
        text = f.read()
    broken, count = FIFO_PUSH.subn(LIFO_PUSH, text)
    with open(path, "w") as f:
        f.write(broken)
    return count == 1


def grade_chapter_02(grader, builddir, workdir, where, scratch, name, *extra):
    json_path = os.path.join(scratch, name + ".json")
    finished, seconds = grade(grader, builddir, workdir, where, json_path, *PLAIN, *extra,
                              chapter=REGRESSION_CHAPTER)
    print(f"--- {name}: exit {finished.returncode} in {seconds:.0f} s")
    return finished, load(json_path) or {"tests": [], "score": None, "max_score": None}


def check_regressions_counted(grader, builddir, source_root, workdir, scratch):
    """Chapter 02's grade counts chapter 01's tests on chapter 02's runtime."""
    own = points_of(grader, builddir, REGRESSION_CHAPTER)
    earlier = points_of(grader, builddir, CHAPTER)
    where = os.path.join(scratch, "chapter-02")
    make_submission(source_root, where, "solution", None, {}, {})
    solve(source_root, where, REGRESSION_CHAPTER)
    finished, record = grade_chapter_02(grader, builddir, workdir, where, scratch, "honest 02")
    check(record["score"] == record["max_score"] == own + earlier and finished.returncode == 0,
          f"an honest chapter 02 scores {own + earlier}: its tests and chapter 01's, all counted",
          f"{record['score']}/{record['max_score']}: {finished.stdout[-1500:]}")

    check(break_run_queue(where), "chapter 02's run queue can be made LIFO for this check")
    finished, record = grade_chapter_02(grader, builddir, workdir, where, scratch, "breaks 02")
    tests = {(t["test_chapter"], t["name"]): t for t in record["tests"]}
    broken = tests.get((CHAPTER, BROKEN_TEST), {})
    lost = sum(t["points_possible"] for t in record["tests"] if t["status"] != "pass")
    check(broken.get("regression") and broken.get("counted") and broken.get("status") != "pass"
          and record["max_score"] == own + earlier and record["score"] == own + earlier - lost
          and lost >= broken.get("points_possible", 1) and finished.returncode == 1,
          "a chapter 02 answer that breaks a chapter 01 test loses its points in chapter 02",
          f"{record['score']}/{record['max_score']}, lost {lost}: {broken}")
    line = f"(regression, chapter {CHAPTER}: broken by {REGRESSION_CHAPTER}) {BROKEN_TEST}"
    check(line in finished.stdout and
          f'the code of {REGRESSION_CHAPTER} breaks' in finished.stdout and
          f'{CHAPTER} "{BROKEN_TEST}"' in finished.stdout,
          "the report names the earlier chapter and the test that broke", finished.stdout[-2500:])

    finished, record = grade_chapter_02(grader, builddir, workdir, where, scratch, "breaks 02, "
                                        "--no-count-regressions", "--no-count-regressions")
    regressions = [t for t in record["tests"] if t["regression"]]
    check(record["max_score"] == own and regressions and
          not any(t["counted"] for t in regressions),
          "--no-count-regressions shows chapter 01's tests without counting them",
          f"{record['score']}/{record['max_score']}")

    # Chapter 02 has three test binaries (its tests, its model tests, chapter
    # 01's): a compile that never ends costs the submission's one budget,
    # not a budget for each.
    path = os.path.join(where, "chapters", REGRESSION_CHAPTER, "rt", "task", "yield_now.cpp")
    with open(path, "a") as f:
        f.write(ATTACKS["slow-compile"])
    finished, record = grade_chapter_02(grader, builddir, workdir, where, scratch,
                                        "compiles for hours, 02", "--build-timeout", "20")
    messages = " ".join(t["message"] for t in record["tests"])
    check(record["tests"] and all(t["status"] == "does not compile" for t in record["tests"]) and
          "was not started: the submission's builds used up their 20 s" in messages,
          "a chapter's test binaries share the submission's build budget, not one each",
          messages[:1200])


def main():
    global SOURCE_ROOT, FULL, FIRST_TEST, FIRST_POINTS
    if len(sys.argv) not in (4, 5) or sys.argv[4:] not in ([], ["submissions"], ["runs"]):
        print(__doc__)
        return 2
    part = sys.argv[4] if len(sys.argv) == 5 else None
    # The orphans of the graders this starts are reparented here, not to
    # init, so that builder_processes() can tell them from another check's.
    PR_SET_CHILD_SUBREAPER = 36
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    grader, builddir, source_root = (os.path.abspath(p) for p in sys.argv[1:4])
    SOURCE_ROOT = source_root
    FULL, FIRST_TEST, FIRST_POINTS = chapter_points(grader, builddir)
    with tempfile.TemporaryDirectory(prefix="check-submissions-") as scratch:
        os.chmod(scratch, 0o755)
        # One copy of the course for every submission, so each rebuilds only
        # what it changed.
        workdir = os.path.join(scratch, "work")
        # CHECK_SUBMISSIONS_ONLY=TEXT: only the cases whose name holds TEXT
        # (a maintainer's quick look; the suite runs them all).
        only = os.environ.get("CHECK_SUBMISSIONS_ONLY", "")
        for case in CASES if part != "runs" else []:
            if only in case[0]:
                run_case(grader, builddir, source_root, workdir, scratch, case)
        checks = [check_sanitizers_by_default, check_regressions_counted, check_hidden_unforgeable]
        if ROOT:  # without root nothing is sandboxed, so nothing is closed to the test
            checks += [check_hidden_unreadable, check_build_sees_only_its_copy, check_runs_isolated,
                       check_killed_grader_cleans_up]
        if part == "submissions":
            checks = []
        for each in checks:
            if only in each.__name__:
                each(grader, builddir, source_root, workdir, scratch)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
