// Included by the test files that count operator new's blocks: on a
// runtime that keeps freed coroutine frames for reuse (chapter 12's
// FramePool, rt/task/frame_pool@capstone.hpp), the counts would see a
// frame kept for later as one never freed, and a frame reused as no
// allocation. This turns the keeping off for the whole test binary,
// before main; where FramePool is operator new itself (chapters 02 to 11),
// or there is none (chapter 01), it does nothing.
#pragma once

#if __has_include("rt/task/frame_pool.hpp")
#include "rt/task/frame_pool.hpp"

namespace rt_test::detail {

template <class Pool>
bool turn_frame_pool_off() {
  if constexpr (requires { Pool::set_enabled(false); }) Pool::set_enabled(false);
  return true;
}

inline const bool frame_pool_off = turn_frame_pool_off<rt::detail::FramePool>();

}  // namespace rt_test::detail
#endif
