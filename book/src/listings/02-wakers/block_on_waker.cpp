// The waker of the future block_on drives. That future is not a task: it
// is polled right here, on the caller's thread, when `woken` says so, as in
// Tokio. Its waker has a table of its own: the data pointer is this small
// reference-counted object, not a task header. It is allocated once per
// block_on call, and a leaf may keep a clone of it for as long as it
// likes: the parker it reaches is part of the scheduler's shared state.
class BlockOnWaker {
 public:
  // A Waker holding the first reference.
  static Waker create(std::shared_ptr<Parker> parker, BlockOnWaker*& signal) {
    signal = new BlockOnWaker(std::move(parker));
    return Waker::from_raw({signal, &vtable});
  }

  // True once since each wake (the first poll needs none).
  bool take() { return woken_.exchange(false, std::memory_order_acquire); }

 private:
  explicit BlockOnWaker(std::shared_ptr<Parker> parker) : parker_(std::move(parker)) {}

  static BlockOnWaker* self(const void* data) {
    return static_cast<BlockOnWaker*>(const_cast<void*>(data));
  }
  static RawWaker clone(const void* data) {
    // relaxed: a clone is made from a live reference.
    self(data)->refs_.fetch_add(1, std::memory_order_relaxed);
    return {data, &vtable};
  }
  static void wake(const void* data) {
    wake_by_ref(data);
    drop(data);
  }
  static void wake_by_ref(const void* data) {
    BlockOnWaker* signal = self(data);
    signal->woken_.store(true, std::memory_order_release);  // publish before the unpark
    signal->parker_->unpark();
  }
  static void drop(const void* data) {
    // acq_rel: the last owner sees every other owner's use before deleting.
    if (self(data)->refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete self(data);
  }

  static constexpr RawWakerVTable vtable{&clone, &wake, &wake_by_ref, &drop};

  loom::atomic<std::size_t> refs_{1};
  loom::atomic<bool> woken_{true};
  std::shared_ptr<Parker> parker_;
};
