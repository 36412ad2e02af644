void CurrentThread::block_on(Poller& root) {
  ParkThread thread;
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
    if (thread.take_woken() && root.poll(cx)) return;
    // Up to event_interval_ tasks between two looks at the root, as in
    // Tokio: a root that each of them wakes is polled once for them all.
    std::uint32_t ran = 0;
    while (core && ran < event_interval_) {
      Header* task = next_task();
      if (!task) break;
      poll(task);  // the Notified's reference goes with it
      ++ran;
    }
    if (ran > 0) continue;
    thread.park();  // until a task is queued, the root is woken, or the core is free
  }
}
