// A test binary that misbehaves on purpose, one way per test case, for the
// grader's own tests (check_grader.py). Each case is named after what it
// does; none of it is course material.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "graded.hpp"
#include "rt/todo.hpp"

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

// The ways a stub's rt::Todo travels in a runtime. Each must be reported as
// "not started", naming the exercise.
namespace {

[[noreturn]] void unfinished(const char* exercise) {
  throw rt::Todo(exercise);
}

// A destructor that calls a stub: the exception reaches std::terminate.
struct CallsAStubWhenDestroyed {
  ~CallsAStubWhenDestroyed() { unfinished("3 of chapter 01 (fixture_drop, in rt/fixture.hpp)"); }
};

}  // namespace

TEST_CASE("throws a Todo" * POINTS(1)) {
  unfinished("1 of chapter 01 (fixture_spawn, in rt/fixture.cpp)");
}

TEST_CASE("throws a Todo on a worker thread" * POINTS(2)) {
  std::thread worker([] { unfinished("1 of chapter 01 (fixture_spawn, in rt/fixture.cpp)"); });
  worker.join();
}

TEST_CASE("throws a Todo in a destructor" * POINTS(1)) {
  CallsAStubWhenDestroyed stub;
}

// As in a task: the exception is kept where nobody looks, and the test
// waits for what the stub should have done.
TEST_CASE("keeps a Todo and waits" * POINTS(1)) {
  std::exception_ptr kept;
  try {
    unfinished("2 of chapter 01 (fixture_wake, in rt/fixture.hpp)");
  } catch (...) {
    kept = std::current_exception();
  }
  for (;;) pause();
}

// A worker thread that never stops running: a busy loop, told apart from a
// hang where every thread sleeps ("hangs forever").
TEST_CASE("spins on a worker thread" * POINTS(1)) {
  std::atomic<bool> stop{false};
  std::thread spinner([&stop] {
    while (!stop.load(std::memory_order_relaxed)) {
    }
  });
  spinner.join();
}

// Two threads, each holding the mutex the other waits for.
TEST_CASE("deadlocks two threads" * POINTS(1)) {
  std::mutex a, b;
  std::atomic<int> holding{0};
  auto lock_both = [&holding](std::mutex& first, std::mutex& second) {
    std::lock_guard hold_first(first);
    holding.fetch_add(1);
    while (holding.load() < 2) std::this_thread::yield();
    std::lock_guard hold_second(second);
  };
  std::thread one(lock_both, std::ref(a), std::ref(b));
  std::thread two(lock_both, std::ref(b), std::ref(a));
  one.join();
  two.join();
}
