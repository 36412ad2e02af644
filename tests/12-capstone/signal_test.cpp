// Chapter 12: signals. A Signal made before a delivery completes after it;
// ctrl_c hears SIGINT and SIGTERM; two signals pending at once both reach
// their listeners; a delivery between a listener's Notified and its look
// still wakes it (forced with the listener's test hook). Signals are sent
// to the test's own process; the registry is driven by hand where the
// order of events must be exact.
#include <signal.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

#include "counting_waker.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "rt/signal/registry.hpp"
#include "scoped_hook.hpp"

namespace {

rt::Runtime io_runtime(bool multi_thread) {
  if (multi_thread) return rt::Builder::new_multi_thread().worker_threads(2).enable_io().build();
  return rt::Builder::new_current_thread().enable_io().build();
}

void send_to_self(int signo) { REQUIRE(::kill(::getpid(), signo) == 0); }

rt::Task<int> next_of(int signo, bool raise_it) {
  rt::signal::Signal signal = rt::signal::signal(signo);
  if (raise_it) send_to_self(signo);
  co_return co_await signal;
}

}  // namespace

TEST_CASE("a signal delivered after its Signal was made completes it on either flavour" * POINTS(3)) {
  for (bool multi_thread : {false, true}) {
    INFO(std::string(multi_thread ? "on a multi-thread runtime" : "on the current-thread runtime"));
    rt::Runtime runtime = io_runtime(multi_thread);
    CHECK(runtime.block_on(next_of(SIGUSR1, true)) == SIGUSR1);
    CHECK(runtime.block_on(next_of(SIGUSR2, true)) == SIGUSR2);
  }
}

TEST_CASE("ctrl_c completes on SIGINT and on SIGTERM" * POINTS(2)) {
  rt::Runtime runtime = io_runtime(true);
  for (int signo : {SIGINT, SIGTERM}) {
    int heard = runtime.block_on([](int sent) -> rt::Task<int> {
      rt::signal::Signal stop = rt::signal::ctrl_c();
      send_to_self(sent);
      co_return co_await stop;
    }(signo));
    CHECK(heard == signo);
  }
}

TEST_CASE("two signals pending at once both reach their listeners in one turn of the driver" * POINTS(3)) {
  rt::Runtime runtime = io_runtime(false);
  runtime.block_on([]() -> rt::Task<> {
    rt::signal::Signal first = rt::signal::signal(SIGUSR1);
    rt::signal::Signal second = rt::signal::signal(SIGUSR2);
    auto& registry = rt::detail::SignalRegistry::instance();
    std::uint64_t before1 = registry.generation(SIGUSR1);
    std::uint64_t before2 = registry.generation(SIGUSR2);
    // This thread blocks both now, and it is the process's only thread:
    // both stay pending, for the signalfd to read.
    send_to_self(SIGUSR1);
    send_to_self(SIGUSR2);
    registry.process();  // what the driver does when the signalfd is readable, once
    CHECK_MESSAGE(registry.generation(SIGUSR1) == before1 + 1, "SIGUSR1 was pending, and one processing missed it");
    CHECK_MESSAGE(registry.generation(SIGUSR2) == before2 + 1,
                  "two signals were pending, and one processing took only one of them: the driver is edge-triggered, "
                  "so nobody would tell it of the other");
    CHECK(co_await first == SIGUSR1);
    CHECK(co_await second == SIGUSR2);
  }());
}

TEST_CASE("a listener waiting for a signal is woken by its delivery exactly once" * POINTS(2)) {
  rt::Runtime runtime = io_runtime(false);
  runtime.block_on([]() -> rt::Task<> {
    rt::signal::Signal signal = rt::signal::signal(SIGUSR1);
    CountingWaker waker;
    rt::Context cx(waker.waker());
    REQUIRE_MESSAGE(!signal.poll(cx), "a Signal was ready before any delivery");
    send_to_self(SIGUSR1);
    rt::detail::SignalRegistry::instance().process();
    CHECK_MESSAGE(waker.wakes() == 1, "a delivery did not wake the listener that was waiting for it");
    CHECK(signal.poll(cx));
    CHECK(signal.await_resume() == SIGUSR1);
    CHECK_MESSAGE(!signal.poll(cx), "a Signal was ready again with no new delivery");
    co_return;
  }());
}

TEST_CASE("a delivery between a listener's Notified and its look at the generations still ends the wait" * POINTS(3)) {
  rt::Runtime runtime = io_runtime(false);
  runtime.block_on([]() -> rt::Task<> {
    rt::signal::Signal signal = rt::signal::signal(SIGUSR2);
    static bool armed;
    armed = true;
    rt_test::ScopedHook<void (*)()> hook(rt::detail::after_signal_notified_made, [] {
      if (!std::exchange(armed, false)) return;
      send_to_self(SIGUSR2);
      rt::detail::SignalRegistry::instance().process();
    });
    CountingWaker waker;
    rt::Context cx(waker.waker());
    bool ready = signal.poll(cx);
    CHECK_MESSAGE((ready || waker.wakes() == 1),
                  "a signal came during the listener's poll, and it neither saw it nor was woken: it waits for ever");
    co_return;
  }());
}

TEST_CASE("a Signal needs a runtime with I/O enabled and says so" * POINTS(1)) {
  rt::Runtime runtime = rt::Builder::new_current_thread().build();
  std::string message;
  try {
    runtime.block_on([]() -> rt::Task<> {
      rt::signal::Signal signal = rt::signal::ctrl_c();
      co_await signal;
    }());
  } catch (const std::logic_error& error) {
    message = error.what();
  }
  CHECK(message.find("IO is disabled") != std::string::npos);
  // And the exercises are what this chapter is about: a Signal that works.
  rt::Runtime with_io = io_runtime(false);
  CHECK(with_io.block_on(next_of(SIGUSR1, true)) == SIGUSR1);
}
