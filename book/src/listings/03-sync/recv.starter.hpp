// `co_await rx.recv()`: the next value, or std::nullopt once every sender
// is gone and the queue is empty.
class [[nodiscard]] Recv : public Leaf<Recv> {
 public:
  explicit Recv(detail::Chan<T>& chan) : chan_(chan) {}

  bool poll(Context& cx) override {
    Waker replaced;  // destroyed after the unlock
    // TODO: under chan_.mutex: if a value is queued, move it into value_,
    // pop it, and (after unlocking) give its slot back with
    // chan_.semaphore.release(1), then report ready. If the queue is empty
    // and no sender is left (or the receiver closed), report ready with
    // value_ empty. Otherwise keep a clone of cx.waker() in chan_.rx_waker
    // (replace it only when it would not wake the same task) and report
    // not ready.
    // Hint: a sender queues its value and takes rx_waker under the same
    // mutex, so checking the queue and storing the waker under one lock
    // is what makes a lost wake-up impossible.
    (void)cx;
    (void)replaced;
    throw Todo("3 of chapter 03 (recv_poll, in rt/sync/mpsc.hpp)");
  }
  std::optional<T> await_resume() { return std::move(value_); }

 private:
  detail::Chan<T>& chan_;
  std::optional<T> value_;
};
