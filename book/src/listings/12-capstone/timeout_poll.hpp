bool poll(Context& cx) override {
  if (poller_.poll(cx)) return true;
  if (sleep_.poll(cx)) {
    elapsed_ = true;
    return true;
  }
  return false;
}

T await_resume() {
  if (elapsed_) {
    task_ = Task<T>();  // the unfinished task goes, with everything it holds
    throw Elapsed();
  }
  return task_.take_result();
}
