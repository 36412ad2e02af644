void abort_task(Header* task) {
  // shutdown() consumes a reference: lend it a new one.
  task->state.ref_inc();
  shutdown(task);
}

