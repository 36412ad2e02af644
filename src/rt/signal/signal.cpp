//@ file capstone..
// Signal, compiled once per runtime; see signal.hpp.
#include "rt/signal/signal.hpp"

#include <signal.h>

#include "rt/signal/driver.hpp"
#include "rt/signal/registry.hpp"
#include "rt/todo.hpp"

namespace rt::signal {

Signal::Signal(std::initializer_list<int> signals) {
  rt::detail::current_signal_driver();  // the runtime hears signals from now on
  rt::detail::SignalRegistry& registry = detail::SignalRegistry::instance();
  for (int signo : signals) {
    registry.listen(signo);
    watched_.push_back({signo, registry.generation(signo)});
  }
}

int Signal::take_delivered() {
  rt::detail::SignalRegistry& registry = detail::SignalRegistry::instance();
  int delivered = 0;
  for (Watched& watched : watched_) {
    std::uint64_t now = registry.generation(watched.signo);
    if (now == watched.seen) continue;
    watched.seen = now;
    if (!delivered) delivered = watched.signo;
  }
  return delivered;
}

//@ listing signal_poll
bool Signal::poll(Context& cx) {
  //@ exercise capstone signal_poll
  if (ready_) return true;  // polled again before the value was taken
  rt::detail::SignalRegistry& registry = detail::SignalRegistry::instance();
  for (;;) {
    // The Notified first, then the generations: a delivery between the two
    // is in the generations; one after reaches the Notified.
    //@ mutant capstone signal_poll_looks_first: reads the generations before making its Notified, so a delivery in between is missed
    if (!notified_) notified_.emplace(registry.notify());
    if (auto hook = rt::detail::after_signal_notified_made.load(std::memory_order_acquire)) hook();
    if (int signo = take_delivered()) {
    //@ instead
    int signo = take_delivered();
    if (auto hook = rt::detail::after_signal_notified_made.load(std::memory_order_acquire)) hook();
    if (!notified_) notified_.emplace(registry.notify());
    if (signo) {
    //@ end
      notified_.reset();
      signo_ = signo;
      ready_ = true;
      return true;
    }
    if (!notified_->poll(cx)) return false;
    notified_.reset();  // some signal came: is it one of ours?
  }
  //@ starter
  // TODO: ready when one of this Signal's signals was delivered since it
  // last looked; else wait for the registry's notify_waiters().
  //  - if ready_ is set already, say ready (poll may come twice);
  //  - make the wait's Notified (notified_.emplace(registry.notify()))
  //    unless one is in progress; call the test hook
  //      if (auto hook = rt::detail::after_signal_notified_made.load(std::memory_order_acquire)) hook();
  //    then look (take_delivered(): the first
  //    signal delivered since we looked, or 0). One came: drop the
  //    Notified, remember the signal in signo_, set ready_, return true;
  //  - else poll the Notified with cx: pending means pending; notified
  //    means some signal came: reset it and look again.
  // Hint: this is the check-then-wait of every wait in the course. What
  // must exist before you look, so that a delivery right after the look
  // still wakes this task?
  (void)cx;
  throw Todo("@NN@ signal_poll (@FILE@)");
  //@ end
}
//@ listing-end signal_poll

Signal signal(int signo) { return Signal({signo}); }

Signal ctrl_c() { return Signal({SIGINT, SIGTERM}); }

}  // namespace rt::signal
