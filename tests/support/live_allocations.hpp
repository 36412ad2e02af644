// live_allocations(): blocks allocated with operator new and not yet freed,
// in the whole test binary. Including this header replaces the global
// operator new and delete with versions that count, so a test can read the
// count around a runtime's life and see a leak without AddressSanitizer.
// Include it from one test file of a chapter only: a program has one
// operator new.
#pragma once

#include <atomic>
#include <cstdlib>
#include <new>

#include "frame_pool_off.hpp"

// g++ 12 inlines these hooks and then mistakes their malloc/free pairs for
// a mismatch with the new-expressions that call them.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

namespace rt_test::detail {

inline std::atomic<long> allocations{0};
inline std::atomic<long> frees{0};

}  // namespace rt_test::detail

void* operator new(std::size_t size) {
  rt_test::detail::allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* block = std::malloc(size ? size : 1)) return block;
  throw std::bad_alloc();
}
void operator delete(void* block) noexcept {
  if (!block) return;
  rt_test::detail::frees.fetch_add(1, std::memory_order_relaxed);
  std::free(block);
}
void operator delete(void* block, std::size_t) noexcept { operator delete(block); }

namespace rt_test {

inline long live_allocations() { return detail::allocations.load() - detail::frees.load(); }

// The blocks `run` leaves allocated, counted over its second call: the first
// makes what stays allocated once made (thread-locals, reserved buffers).
template <class Run>
long leaked_by(Run run) {
  run();
  long before = live_allocations();
  run();
  return live_allocations() - before;
}

}  // namespace rt_test
