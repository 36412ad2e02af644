//@ file wakers..blocking
// FramePool: where the blocks of coroutine frames come from (the frame and
// the room in front of it, rt/task/frame_room.hpp). Here, operator new and
// delete: chapter 12 keeps freed blocks per thread for the next frame of
// the same size (frame_pool@capstone.hpp), which Tokio, whose futures are
// values, has no need of.
#pragma once

#include <cstddef>
#include <new>

namespace rt::detail {

class FramePool {
 public:
  static void* allocate(std::size_t bytes) { return ::operator new(bytes); }
  // `bytes`: what allocate was asked for (operator delete needs no size).
  static void release(void* block, std::size_t) noexcept { ::operator delete(block); }
};

}  // namespace rt::detail
