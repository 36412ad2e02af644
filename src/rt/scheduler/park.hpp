// Parker: lets the runtime's thread sleep until there is work. Mirrors the
// park/unpark pair of Tokio's ParkThread (runtime/park.rs).
//
// unpark() leaves a token; park() sleeps until there is one and takes it.
// Because the token stays when nobody is asleep yet, a wake-up that comes
// between "the queue looked empty" and "go to sleep" is never lost.
#pragma once

#include <condition_variable>
#include <mutex>

namespace rt::detail {

// ANCHOR: parker
class Parker {
 public:
  void park() {
    std::unique_lock lock(mutex_);
    wakeup_.wait(lock, [this] { return token_; });
    token_ = false;
  }

  void unpark() {
    {
      std::lock_guard lock(mutex_);
      token_ = true;
    }
    wakeup_.notify_one();
  }

 private:
  std::mutex mutex_;
  std::condition_variable wakeup_;
  bool token_ = false;
};
// ANCHOR_END: parker

}  // namespace rt::detail
