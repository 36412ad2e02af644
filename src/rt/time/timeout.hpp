//@ file timers..
// timeout: a task with a deadline. Mirrors tokio::time::timeout and its
// Timeout future (time/timeout.rs).
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

// `task` with a deadline: a leaf that polls the task (as a chain of its
// own, nested in this poll) and, if it is not done, the sleep. Tokio's
// Timeout<F> is a future of its own in the same way, not an async fn: a
// timeout costs no coroutine frame of its own, only the task's. Like any
// leaf it is awaited where it is made, in a task (co_await); to block_on or
// spawn one, await it in a task of your own.
template <class T>
class [[nodiscard]] Timeout : public Leaf<Timeout<T>> {
 public:
  Timeout(Instant deadline, Task<T> task)
      : task_(std::move(task)), poller_(task_.handle()), sleep_(deadline) {}
  Timeout(const Timeout&) = delete;
  Timeout& operator=(const Timeout&) = delete;

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

// `task`, unless it is not done by `deadline`: then Elapsed.
template <class T>
Timeout<T> timeout_at(Instant deadline, Task<T> task) {
  return Timeout<T>(deadline, std::move(task));
}

// `task`, unless it is not done within `duration`: then Elapsed.
template <class T>
Timeout<T> timeout(Duration duration, Task<T> task) {
  return Timeout<T>(Instant::now() + duration, std::move(task));
}

}  // namespace rt::time
