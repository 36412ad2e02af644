template <class T>
class [[nodiscard]] JoinHandle : public Leaf<JoinHandle<T>> {
 public:
  explicit JoinHandle(detail::Cell<T>* cell) : cell_(cell) {}
  JoinHandle(JoinHandle&& other) noexcept : cell_(std::exchange(other.cell_, nullptr)) {}
  JoinHandle& operator=(JoinHandle&& other) noexcept {
    JoinHandle old(std::move(*this));  // drops our task, if any, on the way out
    cell_ = std::exchange(other.cell_, nullptr);
    return *this;
  }
  ~JoinHandle() {
    if (cell_) detail::drop_join_handle(cell_);
  }

  bool poll(Context& cx) override { return detail::poll_join(cell_, cx.waker()); }
  bool cooperative() const override { return true; }  // spends the task's budget
  // The value, or a JoinError: the task threw, or was cancelled.
  T await_resume() { return cell_->take_output(); }

  bool is_finished() const { return cell_->state.load().is_complete(); }

  // Cancels the task: a waiting one is handed to its scheduler, which
  // cancels it where it runs tasks; a running one when its poll ends; a
  // finished one not at all. Awaiting the handle then throws a JoinError
  // whose is_cancelled() is true.
  void abort() const { detail::remote_abort(cell_); }

 private:
  detail::Cell<T>* cell_;
};
