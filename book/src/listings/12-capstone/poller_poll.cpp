bool Poller::poll(Context& cx) {
  struct Scope {  // what a leaf's co_await reaches for, restored even on a throw
    CurrentPoll saved = current_poll;
    ~Scope() { current_poll = saved; }
  } scope;
  current_poll = {this, &cx};
  bool ready;
  try {
    ready = leaf_ == nullptr || poll_leaf(*leaf_, cx);  // through the budget (coop.hpp)
  } catch (...) {
    // A leaf threw on a later poll, outside any coroutine body: nobody
    // can catch it but the task. It ends the task as a throw from its
    // first poll would (Tokio: a panic in poll fails the task's join).
    promise_->unhandled_exception();
    failed_ = true;
    leaf_ = nullptr;
    return true;
  }
  if (ready) {
    leaf_ = nullptr;
    resume_at_.resume();  // runs until a leaf suspends the chain or the root ends
  }
  return failed_ || root_.done();
}

