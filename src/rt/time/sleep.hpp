//@ file timers..
// Sleep: a leaf future that is ready at a deadline. Mirrors tokio::time::Sleep
// (time/sleep.rs) and its TimerEntry (runtime/time/entry.rs).
//
//   co_await rt::time::sleep(std::chrono::milliseconds(10));
//
// A Sleep owns its timer entry, so registering allocates nothing; it
// registers on its first poll, not when created, so a Sleep that is never
// awaited (a timeout whose task was ready at once) costs the wheel
// nothing; destroying it takes the entry out of the wheel. It cannot be
// moved (the wheel points into it), as Tokio's must be pinned: keep it
// where it was made, or in a std::unique_ptr.
#pragma once

#include <memory>

#include "rt/task/poll.hpp"
#include "rt/time/driver.hpp"
#include "rt/time/entry.hpp"
#include "rt/time/instant.hpp"
#include "rt/todo.hpp"

namespace rt::time {

class Sleep : public Leaf<Sleep> {
 public:
  // Throws when there is no runtime, or it has no timers (enable_time).
  explicit Sleep(Instant deadline);
  Sleep(const Sleep&) = delete;
  Sleep& operator=(const Sleep&) = delete;
  ~Sleep();

  bool poll(Context& cx) override;
  bool cooperative() const override { return true; }
  void await_resume() const noexcept {}

  Instant deadline() const { return deadline_; }
  // Whether the deadline has been reached (the timer fired).
  bool is_elapsed();
  // A new deadline; a registered Sleep is registered again at once, so
  // the task that waits on it wakes at the new deadline.
  void reset(Instant deadline);

 private:
  std::shared_ptr<rt::detail::TimeDriver> driver_;
  Instant deadline_;
  rt::detail::TimerEntry entry_;
  bool registered_ = false;  // only the owner reads or writes it
};

// Ready once `duration` has passed (rounded up to the next millisecond).
inline Sleep sleep(Duration duration) { return Sleep(Instant::now() + duration); }
// Ready at `deadline`.
inline Sleep sleep_until(Instant deadline) { return Sleep(deadline); }

}  // namespace rt::time
