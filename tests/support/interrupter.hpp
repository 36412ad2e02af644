// Interrupter: runs one step in a signal handler that interrupts another
// step, on the same thread, at whatever instruction it has reached.
//
// Two atomic read-modify-writes that race have a window of a few
// instructions. Two threads meet in it only when both run on two cores at
// the same nanosecond; on a busy machine they hardly ever do. A timer
// signal, though, lands wherever this thread happens to be: run `mine` in a
// tight loop, let a fast timer interrupt it, and the handler runs `theirs`
// in the middle of `mine`, at a different instruction each time. A few
// thousand interruptions cover every instruction of a short step, on one
// core as on many. Only for steps that are lock-free (atomics, no mutex, no
// allocation): the handler runs them wherever the interrupted step stands.
//
//   Interrupter interrupter([&] { theirs = state.transition_to_...(); });
//   while (interrupter.interruptions() < 2000) {
//     reset();
//     interrupter.run([&] { mine = state.transition_to_...(); });  // theirs too, once
//     check();
//   }
//
// ThreadSanitizer delays signals to the next safe point, so under it the
// handler runs only between steps: the test still passes on a correct
// runtime, but finds nothing.
#pragma once

#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <stdexcept>
#include <utility>

class Interrupter {
 public:
  explicit Interrupter(std::function<void()> theirs, long period_ns = 20000) : theirs_(std::move(theirs)) {
    current_.store(this);
    struct sigaction action = {};
    action.sa_handler = &Interrupter::handle;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(kSignal, &action, &previous_) != 0) throw std::runtime_error("sigaction failed");
    struct sigevent event = {};
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = kSignal;
    event._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));  // this thread only
    if (timer_create(CLOCK_MONOTONIC, &event, &timer_) != 0) throw std::runtime_error("timer_create failed");
    struct itimerspec every = {};
    every.it_value.tv_nsec = period_ns;
    every.it_interval.tv_nsec = period_ns;
    timer_settime(timer_, 0, &every, nullptr);
  }
  Interrupter(const Interrupter&) = delete;
  Interrupter& operator=(const Interrupter&) = delete;
  ~Interrupter() {
    timer_delete(timer_);
    sigaction(kSignal, &previous_, nullptr);
    current_.store(nullptr);
  }

  // Runs `mine`, and `theirs` exactly once: inside `mine` if the timer
  // interrupts it, else right after it.
  template <class Mine>
  void run(Mine&& mine) {
    done_.store(false);
    armed_.store(true);
    mine();
    armed_.store(false);
    if (!done_.exchange(true)) theirs_();
  }

  // How many runs had `theirs` interrupt `mine`.
  long interruptions() const { return interruptions_.load(); }

 private:
  static inline const int kSignal = SIGRTMIN + 5;
  static inline std::atomic<Interrupter*> current_{nullptr};

  static void handle(int) {
    Interrupter* self = current_.load();
    if (self == nullptr || !self->armed_.load() || self->done_.exchange(true)) return;
    self->interruptions_.fetch_add(1);
    self->theirs_();
  }

  std::function<void()> theirs_;
  std::atomic<bool> armed_{false};
  std::atomic<bool> done_{true};
  std::atomic<long> interruptions_{0};
  struct sigaction previous_ = {};
  timer_t timer_{};
};
