bool Poller::poll(Context& cx) {
  struct Scope {  // what a leaf's co_await reaches for, restored even on a throw
    CurrentPoll saved = current_poll;
    ~Scope() { current_poll = saved; }
  } scope;
  current_poll = {this, &cx};
  bool ready = leaf_ == nullptr || leaf_->poll(cx);
  if (ready) {
    leaf_ = nullptr;
    resume_at_.resume();  // runs until a leaf suspends the chain or the root ends
  }
  return root_.done();
}

