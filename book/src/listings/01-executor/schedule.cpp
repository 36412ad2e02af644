void CurrentThread::Shared::schedule(TaskRef task) {
  if (!queue.push(std::move(task))) return;  // shut down: the task is dropped
  parker.unpark();
}
