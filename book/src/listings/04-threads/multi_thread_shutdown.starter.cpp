void MultiThread::shutdown() {
  // TODO: shut the runtime down, leaking nothing and leaving no thread:
  //  - close the queue (inject_.close() hands over what was queued): the
  //    run loop leaves once it finds the queue closed;
  //  - wake every worker (parked ones sleep on workers_[i].parker; also
  //    clear the sleepers' list with idle_.take_all()), then join them;
  //  - cancel every task left (cancel_all_tasks()), and give up the
  //    reference of each Notified that was queued (drop_reference; they
  //    are linked through queue_next).
  // Hint: in what order? A worker still running must not poll a task
  // whose coroutine this thread is destroying.
  throw Todo("4 of chapter 04 (shutdown, in rt/scheduler/multi_thread/multi_thread.cpp)");
}
