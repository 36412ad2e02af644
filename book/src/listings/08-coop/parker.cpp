void Parker::park() {
  std::unique_lock lock(mutex_);
  wakeup_.wait(lock, [this] { return token_; });
  token_ = false;
}

void Parker::unpark() {
  {
    std::lock_guard lock(mutex_);
    token_ = true;
  }
  wakeup_.notify_one();
}

