//@ file wakers..
// FrameRoom: room for a task's cell in front of every Task<T> coroutine
// frame, so that a spawned task is one allocation.
//
// Tokio allocates a task's Cell (header, future, output, join waker) in one
// Box at spawn. In C++ the coroutine frame is already allocated when the
// coroutine function is called, before anyone knows whether it will be
// spawned, awaited inline or handed to block_on. So every Task<T> frame is
// allocated with room in front of it, and spawn builds the task's cell
// there instead of allocating one:
//
//   one FramePool block: [ Cell<T> (header, output) | RoomTag | pad ][ coroutine frame ]
//                          ^ the task's Header*                      ^ the frame's address
//
// The price: a Task that is never spawned (one awaited inline, or the one
// block_on drives) carries the room unused. FrameRoom<T>::size() bytes:
// 160 for Task<int> with g++ 12 on x86-64 (experiments/02-wakers prints
// the whole block: this and the frame).
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

#include "rt/task/frame_pool.hpp"

namespace rt::detail {

template <class T>
class Cell;  // rt/task/cell.hpp

// Who frees the block: the coroutine, when its frame is destroyed (not
// spawned), or the task, when its last reference goes (spawned).
struct RoomTag {
  bool owned_by_task;
  std::uint32_t frame_size;  // for the pool, which may keep blocks by their size
};

inline constexpr std::size_t kFrameAlign = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

constexpr std::size_t align_up(std::size_t bytes) {
  return (bytes + kFrameAlign - 1) / kFrameAlign * kFrameAlign;
}

//@ listing frame_room
template <class T>
struct FrameRoom {
  // Bytes in front of the frame; a multiple of the alignment the compiler
  // assumes for a frame.
  static constexpr std::size_t size() {
    static_assert(alignof(Cell<T>) <= kFrameAlign, "the cell must fit the frame's alignment");
    return align_up(sizeof(Cell<T>) + sizeof(RoomTag));
  }

  // The promise's operator new: the frame, with the room in front.
  static void* allocate(std::size_t frame_size) {
    auto* block = static_cast<std::byte*>(FramePool::allocate(size() + frame_size));
    ::new (block + sizeof(Cell<T>)) RoomTag{false, static_cast<std::uint32_t>(frame_size)};
    return block + size();
  }

  // The promise's operator delete: the frame is destroyed. A spawned
  // task's block outlives its frame (its header holds the state word
  // that wakers still reach): the task frees it later.
  static void release(void* frame) noexcept {
    RoomTag* room = tag(block_of(frame));
    if (room->owned_by_task) return;
    FramePool::release(block_of(frame), size() + room->frame_size);
  }

  // spawn: the storage for the cell in front of `frame`; from now on the
  // task, not the frame, frees the block.
  static void* claim_for_task(void* frame) {
    tag(block_of(frame))->owned_by_task = true;
    return block_of(frame);
  }

  // The task's last reference is gone and its cell destroyed: free the
  // block, frame included.
  static void free_task(void* cell_storage) noexcept {
    auto* block = static_cast<std::byte*>(cell_storage);
    FramePool::release(block, size() + tag(block)->frame_size);
  }

 private:
  static std::byte* block_of(void* frame) { return static_cast<std::byte*>(frame) - size(); }
  static RoomTag* tag(std::byte* block) {
    return std::launder(reinterpret_cast<RoomTag*>(block + sizeof(Cell<T>)));
  }
};

// What Task<T>'s promise inherits: its frames are allocated with the room.
template <class T>
struct AllocateWithRoom {
  static void* operator new(std::size_t frame_size) { return FrameRoom<T>::allocate(frame_size); }
  static void operator delete(void* frame) noexcept { FrameRoom<T>::release(frame); }
};
//@ listing-end frame_room

}  // namespace rt::detail
