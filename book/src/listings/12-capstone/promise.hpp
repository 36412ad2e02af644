std::suspend_always initial_suspend() noexcept { return {}; }  // lazy

// When a Task finishes, control goes back to whoever awaited it, or, for
// the outermost Task, back to the poll that resumed it.
struct FinalAwaiter {
  bool await_ready() noexcept { return false; }
  template <class Promise>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> self) noexcept {
    std::coroutine_handle<> next = self.promise().continuation_;
    return next ? next : std::noop_coroutine();
  }
  void await_resume() noexcept {}
};
FinalAwaiter final_suspend() noexcept { return {}; }
