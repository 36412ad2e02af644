// One waiter: the waker to call, and its place in the queue. The primitive
// that owns the list decides what else a waiter carries.
struct Waiter {
  Waker waker;
  bool queued = false;  // linked into a WaitList right now
  // What the list's owner handed this waiter when it took it off the list
  // (a permit, a notification); 0 while nothing. The owner says what it means.
  int granted = 0;
  // What the owner wants to remember of when the waiter came (Notify: the
  // notify_waiters() calls made before it queued).
  std::uint64_t tag = 0;
  Waiter* prev = nullptr;
  Waiter* next = nullptr;

  // Keeps the waker the latest poll was handed, replacing the stored one only
  // when it would wake some other task (a task can move between threads and
  // polls, as Tokio's AtomicWaker allows for). Returns the waker it replaced,
  // for the caller to drop after unlocking: dropping a waker can drop the
  // last reference to a task.
  Waker register_waker(const Context& cx) {
    if (waker.will_wake(cx.waker())) return Waker();
    return std::exchange(waker, cx.waker());
  }
};
