//@ file sync..
// Mutex<T>: an asynchronous mutex around a value. Mirrors
// tokio/src/sync/mutex.rs.
//
//   rt::Mutex<int> counter(0);
//   auto guard = co_await counter.lock();   // waits without blocking a thread
//   *guard += 1;
//   co_await something_else();              // fine: the guard may stay held
//                                           // guard unlocks when destroyed
//
// As in Tokio, the mutex is a semaphore with one permit: lock() acquires the
// permit, the guard's destructor releases it, and the semaphore's release
// hands it straight to the oldest waiter. So the lock is fair (first come,
// first served), and a task that gives up waiting passes on a lock it was
// handed but never saw.
//
// Why not std::mutex? A std::mutex held across co_await blocks the thread,
// and with it every other task that thread would run; the one that could
// unlock it may be one of them (experiments/03-sync.cpp shows the stall).
#pragma once

#include <concepts>
#include <optional>
#include <utility>

#include "rt/sync/semaphore.hpp"
#include "rt/task/poll.hpp"

namespace rt {

template <class T>
class Mutex;

// Access to the value, for as long as it lives. Movable, not copyable.
template <class T>
class [[nodiscard]] MutexGuard {
 public:
  MutexGuard(MutexGuard&& other) noexcept : mutex_(std::exchange(other.mutex_, nullptr)) {}
  MutexGuard& operator=(MutexGuard&& other) noexcept {
    if (this != &other) {
      unlock();
      mutex_ = std::exchange(other.mutex_, nullptr);
    }
    return *this;
  }
  ~MutexGuard() { unlock(); }

  T& operator*() const { return mutex_->value_; }
  T* operator->() const { return &mutex_->value_; }

  // Unlocks now rather than at the end of the scope.
  void unlock() {
    if (auto* mutex = std::exchange(mutex_, nullptr)) mutex->semaphore_.release(1);
  }

 private:
  friend class Mutex<T>;
  explicit MutexGuard(Mutex<T>& mutex) : mutex_(&mutex) {}

  Mutex<T>* mutex_;
};

template <class T>
class Mutex {
 public:
  Mutex() requires std::default_initializable<T> : value_() {}
  template <class... Args>
  explicit Mutex(std::in_place_t, Args&&... args) : value_(std::forward<Args>(args)...) {}
  explicit Mutex(T value) : value_(std::move(value)) {}
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  //@ listing lock
  // `co_await mutex.lock()`: the leaf that waits for the one permit.
  class [[nodiscard]] Lock : public Leaf<Lock> {
   public:
    explicit Lock(Mutex& mutex) : mutex_(mutex), acquire_(mutex.semaphore_.acquire()) {}

    bool poll(Context& cx) override {
      // The semaphore of a Mutex is never closed.
      return acquire_.poll(cx) == detail::Semaphore::Outcome::acquired;
    }
//@ chapters coop..
    bool cooperative() const override { return true; }  // spends the task's budget
//@ end
    MutexGuard<T> await_resume() { return MutexGuard<T>(mutex_); }

   private:
    Mutex& mutex_;
    detail::Semaphore::Acquire acquire_;  // its destructor passes on an unused lock
  };
  //@ listing-end lock

  Lock lock() { return Lock(*this); }

  // The guard now, or nothing if the mutex is held or somebody waits for it.
  std::optional<MutexGuard<T>> try_lock() {
    if (!semaphore_.try_acquire()) return std::nullopt;
    return MutexGuard<T>(*this);
  }

 private:
  friend class MutexGuard<T>;

  detail::Semaphore semaphore_{1};
  T value_;
};

}  // namespace rt
