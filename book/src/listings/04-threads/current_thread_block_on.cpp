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
    if (core) {
      if (Header* task = next_task()) {
        poll(task);  // the Notified's reference goes with it
        continue;
      }
    }
    thread.park();  // until a task is queued, the root is woken, or the core is free
  }
}
