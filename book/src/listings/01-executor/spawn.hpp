template <class T>
JoinHandle<T> CurrentThread::spawn(Task<T> future) {
  auto cell = std::make_shared<Cell<T>>(shared_, std::move(future));
  if (!shared_->owned.bind(cell)) throw std::runtime_error("spawn on a runtime that has shut down");
  cell->wake();  // a new task is ready to run: queue it like a woken one
  return JoinHandle<T>(std::move(cell));
}
