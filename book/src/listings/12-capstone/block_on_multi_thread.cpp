void MultiThread::block_on(Poller& root) {
  // The caller's thread only polls its own future; the workers run tasks.
  ParkThread thread;
  Context cx(thread.waker());
  for (;;) {
    if (thread.take_woken() && coop::detail::with_budget([&] { return root.poll(cx); })) return;
    thread.park();
  }
}
