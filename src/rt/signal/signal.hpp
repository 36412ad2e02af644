//@ file capstone..
// Signal: a leaf that is ready when one of its signals was delivered.
// Mirrors tokio::signal::unix::Signal and tokio::signal::ctrl_c.
//
//   rt::signal::Signal terminate = rt::signal::signal(SIGTERM);
//   co_await terminate;                 // the next SIGTERM
//   co_await rt::signal::ctrl_c();      // the next SIGINT or SIGTERM
//
// A Signal counts from when it was made: a delivery before that is not
// its, one after it (even before its first poll) is. Deliveries that come
// while nobody awaits are not queued one by one: the next co_await sees
// that at least one came, as Tokio's do. Once the first Signal is made,
// the signal no longer does its default (a SIGINT no longer ends the
// process): the program decides.
#pragma once

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "rt/loom.hpp"
#include "rt/sync/notify.hpp"
#include "rt/task/poll.hpp"

namespace rt::detail {

// A test hook: runs in Signal::poll between making its Notified and
// looking at the generations. Empty in normal use.
inline loom::atomic<void (*)()> after_signal_notified_made{nullptr};

}  // namespace rt::detail

namespace rt::signal {

class [[nodiscard]] Signal : public Leaf<Signal> {
 public:
  // Listens for `signals` on the current runtime, which must have I/O
  // enabled.
  explicit Signal(std::initializer_list<int> signals);
  Signal(const Signal&) = delete;
  Signal& operator=(const Signal&) = delete;

  bool poll(Context& cx) override;
  bool cooperative() const override { return true; }  // a runtime resource: spends the budget
  // Which signal came (the lowest, if several did).
  int await_resume() {
    ready_ = false;
    return signo_;
  }

 private:
  struct Watched {
    int signo;
    std::uint64_t seen;  // its generation when we last looked
  };

  // A signal delivered since we last looked, or 0.
  int take_delivered();

  std::vector<Watched> watched_;
  std::optional<Notify::Notified> notified_;  // the wait in progress
  bool ready_ = false;
  int signo_ = 0;
};

// The next delivery of `signo` (SIGHUP, SIGTERM, SIGUSR1, ...).
Signal signal(int signo);
// The next SIGINT (Ctrl-C) or SIGTERM (what `kill` and service managers
// send): the two ways a server is asked to stop.
Signal ctrl_c();

}  // namespace rt::signal
