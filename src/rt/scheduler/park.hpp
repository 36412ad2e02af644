// Parker: lets the runtime's thread sleep until there is work. Mirrors the
// park/unpark pair of Tokio's ParkThread (runtime/park.rs).
//
// unpark() leaves a token; park() sleeps until there is one and takes it.
// Because the token stays when nobody is asleep yet, a wake-up that comes
// between "the queue looked empty" and "go to sleep" is never lost.
#pragma once

#include <condition_variable>
#include <mutex>

#include "rt/loom.hpp"

namespace rt::detail {

class Parker {
 public:
  void park();

  void unpark();

 private:
  loom::mutex mutex_;
  loom::condition_variable wakeup_;
  bool token_ = false;
};

}  // namespace rt::detail
