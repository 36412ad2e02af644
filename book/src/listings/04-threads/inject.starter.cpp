bool Inject::push(Header* task) {
  // TODO: append `task` at the tail, under the lock (lock()), unless the
  // queue is closed: then return false and queue nothing. The link is the
  // task's own queue_next. Keep len_ equal to the number of tasks queued.
  // Hint: len_ is read without the lock by workers deciding whether to
  // sleep: update it with the task already linked, and with seq_cst.
  (void)task;
  throw Todo("1 of chapter 04 (inject: push, in rt/scheduler/inject.cpp)");
}

Header* Inject::pop() {
  // TODO: unlink and return the task at the head, under the lock, or
  // nullptr when there is none. Keep len_ in step, and tail_ too: what
  // must tail_ be once the last task is taken?
  // Hint: len_ also lets an idle worker skip the lock when the queue is
  // empty.
  throw Todo("1 of chapter 04 (inject: pop, in rt/scheduler/inject.cpp)");
}
