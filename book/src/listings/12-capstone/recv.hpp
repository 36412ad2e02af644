// `co_await rx.recv()`: the next value, or std::nullopt once every sender
// is gone and the queue is empty.
class [[nodiscard]] Recv : public Leaf<Recv> {
 public:
  explicit Recv(detail::Chan<T>& chan) : chan_(chan) {}

  bool poll(Context& cx) override {
    Waker replaced;  // destroyed after the unlock
    std::unique_lock lock(chan_.mutex);
    if (!chan_.queue.empty()) {
      value_.emplace(std::move(chan_.queue.front()));
      chan_.queue.pop_front();
      lock.unlock();
      chan_.semaphore.release(1);  // a slot is free: wakes the oldest waiting sender
      return true;
    }
    if (chan_.senders == 0 || chan_.rx_closed) return true;  // closed and drained
    if (!chan_.rx_waker.will_wake(cx.waker())) replaced = std::exchange(chan_.rx_waker, cx.waker());
    return false;
  }
  bool cooperative() const override { return true; }  // spends the task's budget
  std::optional<T> await_resume() { return std::move(value_); }

 private:
  detail::Chan<T>& chan_;
  std::optional<T> value_;
};
