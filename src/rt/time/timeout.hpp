//@ file timers..
// timeout: a task with a deadline. Mirrors tokio::time::timeout
// (time/timeout.rs).
//
//   try {
//     int value = co_await rt::time::timeout(std::chrono::seconds(1), fetch());
//   } catch (const rt::time::Elapsed&) {
//     // fetch() took longer: it was destroyed, unfinished
//   }
//
// The task is polled first, the timer second: a task that is ready at
// once never touches the wheel. Its own exception comes through as it is;
// only the deadline throws Elapsed.
#pragma once

#include <optional>
#include <stdexcept>
#include <utility>

#include "rt/task/poll.hpp"
#include "rt/task/task.hpp"
#include "rt/time/instant.hpp"
#include "rt/time/sleep.hpp"

namespace rt::time {

// The deadline passed before the task finished.
class Elapsed : public std::runtime_error {
 public:
  Elapsed() : std::runtime_error("deadline has elapsed") {}
};

namespace detail {

// Polls the task (as a chain of its own, nested in this poll) and, if it
// is not done, the sleep.
template <class T>
class TimeoutLeaf : public Leaf<TimeoutLeaf<T>> {
 public:
  TimeoutLeaf(Instant deadline, Task<T> task)
      : task_(std::move(task)), poller_(task_.handle()), sleep_(deadline) {}

//@ listing timeout_poll
  bool poll(Context& cx) override {
    if (poller_.poll(cx)) return true;
    if (sleep_.poll(cx)) {
      elapsed_ = true;
      return true;
    }
    return false;
  }

  T await_resume() {
    if (elapsed_) {
      task_ = Task<T>();  // the unfinished task goes, with everything it holds
      throw Elapsed();
    }
    return task_.take_result();
  }
//@ listing-end timeout_poll

 private:
  Task<T> task_;
  rt::detail::Poller poller_;
  Sleep sleep_;
  bool elapsed_ = false;
};

}  // namespace detail

// `task`, unless it is not done by `deadline`: then Elapsed.
template <class T>
Task<T> timeout_at(Instant deadline, Task<T> task) {
  co_return co_await detail::TimeoutLeaf<T>(deadline, std::move(task));
}

// `task`, unless it is not done within `duration`: then Elapsed.
template <class T>
Task<T> timeout(Duration duration, Task<T> task) {
  return timeout_at(Instant::now() + duration, std::move(task));
}

}  // namespace rt::time
