RawWaker TaskWaker::clone(const void* data) {
  // TODO: a clone is one more reference to the task: add it to the state
  // word, and return a RawWaker with the same data and table.
  // Hint: State::ref_inc.
  (void)data;
  throw Todo("2 of chapter 02 (waker: clone, in rt/task/task_waker.cpp)");
}

void TaskWaker::wake(const void* data) {
  // TODO: wake by value: this call owns the waker's reference. Ask the
  // state word (transition_to_notified_by_val) and do what it says:
  //  - Submit: queue the task (task->scheduler->schedule(task) takes the
  //    new Notified's reference), then drop the waker's reference;
  //  - Dealloc: the waker's reference was the last: free the task
  //    (task->vtable->dealloc);
  //  - DoNothing: nothing.
  // Hint: why drop the waker's reference only after schedule()?
  (void)data;
  throw Todo("2 of chapter 02 (waker: wake, in rt/task/task_waker.cpp)");
}

void TaskWaker::wake_by_ref(const void* data) {
  // TODO: wake by reference: the waker keeps its reference. Ask the state
  // word (transition_to_notified_by_ref) and, on Submit, queue the task:
  // task->scheduler->schedule(task) takes the new Notified's reference.
  (void)data;
  throw Todo("2 of chapter 02 (waker: wake_by_ref, in rt/task/task_waker.cpp)");
}

