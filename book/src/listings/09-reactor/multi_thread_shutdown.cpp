void MultiThread::shutdown() {
  // 1. Close the queue: every worker leaves its loop once it sees it
  //    closed, and every later wake drops its Notified.
  Header* queued = inject_.close();
  // 2. Wake every worker, so that the parked ones see it too, then wait
  //    for each to finish the poll it is in.
  idle_.take_all();
  for (Worker& worker : workers_) worker.parker.unpark();
  for (loom::thread& thread : threads_) thread.join();
  // 3. No task runs any more: cancel every one left, and drop the
  //    Notifieds that were queued.
  cancel_all_tasks();
  while (queued) {
    Header* next = queued->queue_next;
    drop_reference(queued);
    queued = next;
  }
  // And those the workers held, now that their owners are gone.
  for (Worker& worker : workers_) drop_own_tasks(worker);
}
