class BlockOnSignal final : public Wakeable {
 public:
  explicit BlockOnSignal(std::shared_ptr<Parker> parker) : parker_(std::move(parker)) {}

  void wake() override {
    woken_.store(true, std::memory_order_release);  // publish before the unpark
    parker_->unpark();
  }
  bool take() { return woken_.exchange(false, std::memory_order_acquire); }

 private:
  loom::atomic<bool> woken_{true};  // the first poll needs no wake-up
  // Shared, not borrowed: a thread may still be inside wake() after
  // block_on has returned and the runtime is gone.
  std::shared_ptr<Parker> parker_;
};
