void TaskBase::wake() {
  // TODO: hand this task to its scheduler, to be polled again, unless it
  // is queued already (then do nothing: it will be polled anyway).
  // Hint: scheduled_.exchange(true) tells you whether it was queued, and
  // shared_from_this() is the reference the run queue keeps.
  throw Todo("3 of chapter 01 (waker, in rt/task/cell.cpp)");
}

