// `co_await tx.send(value)`: waits for a free slot, then queues the value.
// Throws SendError<T> (with the value) if the receiver is gone.
class [[nodiscard]] Send : public Leaf<Send> {
 public:
  Send(detail::Chan<T>& chan, T value)
      : chan_(chan), value_(std::move(value)), acquire_(chan_.semaphore.acquire()) {}

  bool poll(Context& cx) override {
    switch (acquire_.poll(cx)) {
      case rt::detail::Semaphore::Outcome::pending:
        return false;  // full: release() wakes us with a slot that is ours
      case rt::detail::Semaphore::Outcome::closed:
        return true;  // the receiver is gone: sent_ stays false
      case rt::detail::Semaphore::Outcome::acquired:
        sent_ = chan_.push(value_);
        return true;
    }
    return true;
  }
  bool cooperative() const override { return true; }  // spends the task's budget
  void await_resume() {
    if (!sent_) throw SendError<T>(std::move(value_));
  }

 private:
  detail::Chan<T>& chan_;
  T value_;
  rt::detail::Semaphore::Acquire acquire_;
  bool sent_ = false;
};
