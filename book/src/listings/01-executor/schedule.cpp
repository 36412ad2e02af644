void CurrentThread::Shared::schedule(TaskRef task) {
  if (closed.load(std::memory_order_acquire)) return;  // shut down: drop it
  queue.push(std::move(task));
  parker.unpark();
}
