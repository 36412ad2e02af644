// `co_await task` from inside another coroutine.
struct Awaiter {
  Handle child;

  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> parent) {
    // TODO: make `child` resume `parent` when it finishes (its promise's
    // set_continuation), then return the handle to run next.
    // Hint: returning a handle from await_suspend resumes it at once, with
    // no new stack frame and no new task: that is symmetric transfer.
    (void)parent;
    throw Todo("1 of chapter 01 (nested_await, in rt/task/task.hpp)");
  }
  T await_resume() { return child.promise().take_result(); }
};
Awaiter operator co_await() && { return Awaiter{handle_}; }
