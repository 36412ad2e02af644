// ScopedHook: installs one of the runtime's test hooks (a std::atomic
// function pointer, such as rt::detail::during_steal) for one test, and
// always removes it, even when the test fails with an exception, so that
// no later test runs a hook that points into a finished one.
#pragma once

#include <atomic>

namespace rt_test {

template <class Fn>
class ScopedHook {
 public:
  ScopedHook(std::atomic<Fn>& slot, Fn hook) : slot_(slot) { slot_.store(hook); }
  ~ScopedHook() { slot_.store(nullptr); }
  ScopedHook(const ScopedHook&) = delete;
  ScopedHook& operator=(const ScopedHook&) = delete;

 private:
  std::atomic<Fn>& slot_;
};

}  // namespace rt_test
