// `co_await task` from inside another coroutine.
struct Awaiter {
  Handle child;

  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> parent) {
    child.promise().set_continuation(parent);
    return child;  // symmetric transfer: resume the child right now
  }
  T await_resume() { return child.promise().take_result(); }
};
Awaiter operator co_await() && { return Awaiter{handle_}; }
