bool Inject::push(Header* task) {
  auto guard = lock();
  if (closed_) return false;
  task->queue_next = nullptr;
  if (tail_) tail_->queue_next = task;
  else head_ = task;
  tail_ = task;
  // seq_cst, and after the task is linked: a worker that reads the new
  // length and comes back for the task finds it.
  len_.fetch_add(1, std::memory_order_seq_cst);
  return true;
}

Header* Inject::pop() {
  if (is_empty()) return nullptr;  // the common idle case, without the lock
  auto guard = lock();
  Header* task = head_;
  if (!task) return nullptr;
  head_ = task->queue_next;
  if (!head_) tail_ = nullptr;
  task->queue_next = nullptr;
  len_.fetch_sub(1, std::memory_order_seq_cst);
  return task;
}
