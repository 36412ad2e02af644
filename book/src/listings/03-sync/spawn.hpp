template <class T>
JoinHandle<T> CurrentThread::spawn(Task<T> future) {
  // No allocation here: the cell goes in the room in front of the frame.
  // It starts with three references (INITIAL_STATE): the owned list's,
  // the Notified's and the JoinHandle's.
  Cell<T>* cell = Cell<T>::create(shared_, std::move(future));
  if (!shared_->owned.bind(cell)) {
    // The runtime has shut down: the task is cancelled before it ever
    // runs, and its JoinHandle says so (as in Tokio).
    detail::shutdown(cell);      // takes the owned list's reference
    drop_reference(cell);        // and the Notified's, never queued
    return JoinHandle<T>(cell);  // keeps the JoinHandle's
  }
  shared_->schedule(cell);  // a new task is queued exactly as a woken one is
  return JoinHandle<T>(cell);
}
