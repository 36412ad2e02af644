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
//   Interrupter interrupter([&] { theirs = state.transition_to_...(); }, 2000);
//   while (interrupter.more()) {
//     reset();
//     interrupter.run([&] { mine = state.transition_to_...(); });  // theirs too, once
//     check();
//   }
//   CHECK(interrupter.complete());  // the 2000 interruptions did happen
//
// ThreadSanitizer delays signals to the next safe point (and reports what a
// handler calls as if it interrupted anything): under it no timer is set,
// and a few hundred rounds run the two steps one after the other. The test
// still proves the runtime correct there, and TSan watches the memory.
#pragma once

#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <utility>

#if defined(__SANITIZE_THREAD__)
#define RT_TEST_NO_INTERRUPTS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RT_TEST_NO_INTERRUPTS 1
#endif
#endif

class Interrupter {
 public:
  // Interrupts until `wanted` runs of `mine` have been interrupted.
  Interrupter(std::function<void()> theirs, long wanted, long period_ns = 20000)
      : theirs_(std::move(theirs)) {
#ifndef RT_TEST_NO_INTERRUPTS
    wanted_ = wanted;
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
#else
    (void)wanted;
    (void)period_ns;
#endif
  }
  Interrupter(const Interrupter&) = delete;
  Interrupter& operator=(const Interrupter&) = delete;
  ~Interrupter() {
#ifndef RT_TEST_NO_INTERRUPTS
    timer_delete(timer_);
    sigaction(kSignal, &previous_, nullptr);
    current_.store(nullptr);
#endif
  }

  // Whether to run another round: until enough were interrupted (bounded,
  // should the timer stall), or a fixed few where nothing interrupts.
#ifndef RT_TEST_NO_INTERRUPTS
  bool more() const { return interruptions_.load() < wanted_ && runs_ < kMaxRuns; }
  bool complete() const { return interruptions_.load() >= wanted_; }
#else
  bool more() const { return runs_ < kRunsWithoutInterrupts; }
  bool complete() const { return true; }
#endif

  // Runs `mine`, and `theirs` exactly once: inside `mine` if the timer
  // interrupts it, else right after it. `cold`, if given, is the word
  // `mine` reads first: evicted from the cache, that read is slow, so an
  // interruption mostly lands just after it, in the window between reading
  // the word and writing it back, where a read-then-write goes wrong.
  template <class Mine>
  void run(Mine&& mine, const void* cold = nullptr) {
    ++runs_;
    if (cold) evict(cold);
    done_.store(false);
    armed_.store(true);
    mine();
    armed_.store(false);
    if (!done_.exchange(true)) theirs_();
  }

  // How many runs had `theirs` interrupt `mine`.
  long interruptions() const { return interruptions_.load(); }

 private:
  static constexpr std::int64_t kMaxRuns = 20000000;
  static constexpr std::int64_t kRunsWithoutInterrupts = 300;
  static inline const int kSignal = SIGRTMIN + 5;
  static inline std::atomic<Interrupter*> current_{nullptr};

  static void evict(const void* address) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_clflush(address);
#else
    (void)address;  // elsewhere the interruptions land less often in the window
#endif
  }

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
  std::int64_t runs_ = 0;
#ifndef RT_TEST_NO_INTERRUPTS
  long wanted_ = 0;
  struct sigaction previous_ = {};
  timer_t timer_{};
#endif
};
