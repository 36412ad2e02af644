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
