// `co_await mutex.lock()`: the leaf that waits for the one permit.
class [[nodiscard]] Lock : public Leaf<Lock> {
 public:
  explicit Lock(Mutex& mutex) : mutex_(mutex), acquire_(mutex.semaphore_.acquire()) {}

  bool poll(Context& cx) override {
    // The semaphore of a Mutex is never closed.
    return acquire_.poll(cx) == detail::Semaphore::Outcome::acquired;
  }
  bool cooperative() const override { return true; }  // spends the task's budget
  MutexGuard<T> await_resume() { return MutexGuard<T>(mutex_); }

 private:
  Mutex& mutex_;
  detail::Semaphore::Acquire acquire_;  // its destructor passes on an unused lock
};
