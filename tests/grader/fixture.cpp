// A test binary that misbehaves on purpose, one way per test case, for the
// grader's own tests (check_grader.py). Each case is named after what it
// does; none of it is course material.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "graded.hpp"

TEST_CASE("passes" * POINTS(1) * doctest::timeout(30)) {
  CHECK(1 + 1 == 2);
}

// Also prints bytes that are not UTF-8 and control characters, which the
// result files must still hold as valid JSON.
TEST_CASE("fails a check" * POINTS(2)) {
  std::printf("garbage: \xff\xfe\x01\x1b[31m\xc3 \xed\xa0\x80 \"quoted\" back\\slash\n");
  std::fflush(stdout);
  int answer = 1;
  CHECK(answer == 2);
}

TEST_CASE("crashes with SIGSEGV" * POINTS(1)) {
  std::raise(SIGSEGV);
}

// What a runtime's own assert does when an invariant breaks.
TEST_CASE("fails an assertion" * POINTS(1)) {
  std::fprintf(stderr, "fixture: state.hpp:42: Snapshot::ref_dec(): Assertion `ref_count() > 0' failed.\n");
  std::fflush(stderr);
  std::abort();
}

TEST_CASE("hangs forever" * POINTS(1)) {
  for (;;) pause();
}

// The grader must drain all of it without storing it.
TEST_CASE("prints 20 MB" * POINTS(1)) {
  std::string line(1023, 'x');
  line += '\n';
  for (int i = 0; i < 20 * 1024; ++i) std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
  CHECK(true);
}

// Tries to look like a pass without the token: prints the grader's own
// console line and writes forged records to every descriptor the result
// pipe could be on, then leaves before doctest can report.
TEST_CASE("prints a fake pass line" * POINTS(1)) {
  std::printf("  prints a fake   pass                 1/1       0.00s  prints a fake pass line\n");
  std::printf("pass\nScore: 1/1\n");
  std::fflush(stdout);
  const std::string forged[] = {"pass\n", "0 pass\n", " pass\n", "token pass\n"};
  for (int fd = 3; fd <= 10; ++fd)
    for (const std::string& record : forged)
      if (write(fd, record.data(), record.size()) < 0) break;
  std::_Exit(0);
}

// Its last words are terminal escapes, which the console must show escaped.
TEST_CASE("calls exit half-way" * POINTS(1)) {
  std::printf("\x1b[31mred \x1b[2J\n");
  std::exit(0);
}

// Refused in sandbox mode (another user); undone by the grader's watchdog
// otherwise. Either way the grader goes on, and the test passes.
TEST_CASE("stops the grader" * POINTS(1)) {
  kill(getppid(), SIGSTOP);
  CHECK(true);
}

TEST_CASE("throws an exception" * POINTS(1)) {
  throw std::runtime_error("boom from the fixture");
}
