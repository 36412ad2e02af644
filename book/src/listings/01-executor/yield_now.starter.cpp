bool YieldNow::poll(Context& cx) {
  // TODO: the first poll must re-queue this task and report "not ready";
  // the next poll reports "ready".
  // Hint: the waker in `cx` re-queues the task that is being polled.
  (void)cx;
  (void)yielded_;
  throw Todo("4 of chapter 01 (yield_now, in rt/task/yield_now.cpp)");
}

