void CurrentThread::block_on(Poller& root) {
  // Its parker sleeps in the driver when it is free: the thread in
  // block_on waits for I/O while it waits for work.
  ParkThread thread(driver_.get());
  Context cx(thread.waker());
  bool core = false;
  struct Release {  // hands the core on, even if a poll throws
    CurrentThread* self;
    bool& core;
    ~Release() {
      if (core) self->release_core();
    }
  } release{this, core};
  for (;;) {
    if (!core) core = try_take_core(thread.parker());
    // Each poll, of the root or of a task, with a fresh budget.
    if (thread.take_woken() && coop::detail::with_budget([&] { return root.poll(cx); })) return;
    // Up to event_interval_ tasks between two looks at the root, as in
    // Tokio: a root that each of them wakes is polled once for them all.
    std::uint32_t ran = 0;
    while (core && ran < event_interval_) {
      Header* task = next_task();
      if (!task) break;
      coop::detail::with_budget([this, task] {
        PollTimer timer(instruments(), 0, task);  // the one worker is worker 0
        poll(task);                               // the Notified's reference goes with it
      });
      maintenance();
      ++ran;
    }
    if (ran > 0) continue;
    thread.park();  // until a task is queued, the root is woken, or the core is free
  }
}
