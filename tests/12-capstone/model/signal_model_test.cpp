// Chapter 12, under the model checker: the signal registry's handler path
// against the driver's process(). The handler (run here on a thread of
// the test's own, as a signal caught on that thread would run it) sets
// its signal's flag, then writes the registry's eventfd; process(), run
// when the driver sees the eventfd readable, empties the eventfd, then
// takes the flags. The flags are the checker's atomics, so every
// schedule of the two (with at most two preemptions) is run; the eventfd
// is the real one (non-blocking: its reads and writes never wait), which
// the test asks whether it is readable, as the driver would.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cstdint>

#include "capstone_model.hpp"
#include "model.hpp"
#include "rt/signal/registry.hpp"

namespace rt::detail {

// What the tests reach inside the registry (a friend of SignalRegistry).
struct SignalRegistryModelAccess {
  static void handle(int signo) { SignalRegistry::handle(signo); }
};

}  // namespace rt::detail

namespace {

using rt::detail::SignalRegistry;

bool readable(int fd) {
  pollfd watched{fd, POLLIN, 0};
  return ::poll(&watched, 1, 0) == 1;
}

void empty(int fd) {
  std::uint64_t count;
  while (::read(fd, &count, sizeof count) > 0) {
  }
}

}  // namespace

TEST_CASE("model: a signal caught while the driver processes is delivered then or the eventfd calls the driver again" * POINTS(2)) {
  // Made outside the search: each execution starts with its flags clear
  // and its generations at zero.
  SignalRegistry& registry = SignalRegistry::instance();
  rt_test::explore([&] {
    empty(registry.wake_fd());  // what an execution before this one left
    // A Signal that waits: its Notified, made before the delivery.
    ch12_model::WaitableWaker waker;
    rt::Notify::Notified listener(registry.notify());
    model::thread handler([] { rt::detail::SignalRegistryModelAccess::handle(SIGUSR1); });
    registry.process();  // the driver saw the eventfd readable, or is about to
    handler.join();
    if (registry.generation(SIGUSR1) == 0) {
      // Not delivered yet: the driver must hear of it again.
      model::check(readable(registry.wake_fd()),
                   "the signal's flag is set but the eventfd is empty: the driver will never process it");
      registry.process();
      model::check(registry.generation(SIGUSR1) == 1, "the driver processed again and still did not deliver the signal");
    }
    model::check(registry.generation(SIGUSR1) == 1, "one signal caught was not delivered exactly once");
    rt::Context cx(waker.waker());
    model::check(listener.poll(cx), "the signal was delivered but the listeners were not woken");
  });
  empty(registry.wake_fd());
}
