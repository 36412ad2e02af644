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
    if (core) {
      if (Header* task = next_task()) {
        coop::detail::with_budget([this, task] {
          PollTimer timer(instruments(), 0, task);  // the one worker is worker 0
          poll(task);                               // the Notified's reference goes with it
        });
        maintenance();
        continue;
      }
    }
    thread.park();  // until a task is queued, the root is woken, or the core is free
  }
}
