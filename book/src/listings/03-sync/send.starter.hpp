// `co_await tx.send(value)`: waits for a free slot, then queues the value.
// Throws SendError<T> (with the value) if the receiver is gone.
class [[nodiscard]] Send : public Leaf<Send> {
 public:
  Send(detail::Chan<T>& chan, T value)
      : chan_(chan), value_(std::move(value)), acquire_(chan_.semaphore.acquire()) {}

  bool poll(Context& cx) override {
    // TODO: acquire a free slot with acquire_.poll(cx): pending means the
    // channel is full (report not ready); closed means the receiver is
    // gone (report ready, with sent_ still false); acquired means a slot
    // is ours: queue value_ with chan_.push, which wakes the receiver,
    // and record in sent_ whether it was queued.
    // Hint: the Acquire keeps its place in the semaphore's queue between
    // polls and gives up its slot if this future is destroyed, so this
    // poll needs no state of its own beyond sent_.
    (void)cx;
    throw Todo("2 of chapter 03 (send_poll, in rt/sync/mpsc.hpp)");
  }
  void await_resume() {
    if (!sent_) throw SendError<T>(std::move(value_));
  }

 private:
  detail::Chan<T>& chan_;
  T value_;
  rt::detail::Semaphore::Acquire acquire_;
  bool sent_ = false;
};
