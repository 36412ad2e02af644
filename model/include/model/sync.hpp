// The modelled twins of std::atomic, std::mutex, std::condition_variable
// and std::thread, and a tracked plain cell: what rt/loom.hpp names in a
// model build. Each operation is a point where the checker may switch
// threads; an atomic load may return an older store than the newest. Mirrors
// loom's src/sync, src/thread.rs and src/cell.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include "model/where.hpp"
#include <thread>
#include <type_traits>
#include <utility>

#include "model/core.hpp"
#include "model/model.hpp"

namespace model {

namespace detail {
template <typename T>
std::uint64_t to_bits(T value) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "a modelled atomic holds at most 8 bytes of trivially copyable data");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <typename T>
T from_bits(std::uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}
// The order a read-modify-write's failure half, or a load, may use.
constexpr std::memory_order load_part(std::memory_order order) {
  if (order == std::memory_order_release) return std::memory_order_relaxed;
  if (order == std::memory_order_acq_rel) return std::memory_order_acquire;
  return order;
}
}  // namespace detail

template <typename T>
class atomic {

 public:
  atomic(Where made = Where::current()) noexcept : core_(detail::to_bits(T{}), made) {}
  atomic(T value, Where made = Where::current()) noexcept : core_(detail::to_bits(value), made) {}
  atomic(const atomic&) = delete;
  atomic& operator=(const atomic&) = delete;

  // The implicit forms are seq_cst, as std::atomic's.
  operator T() const { return load(); }
  T operator=(T value) {
    store(value);
    return value;
  }
  template <typename U = T, typename = std::enable_if_t<std::is_integral_v<U>>>
  T operator++() { return static_cast<T>(fetch_add(1) + 1); }
  template <typename U = T, typename = std::enable_if_t<std::is_integral_v<U>>>
  T operator--() { return static_cast<T>(fetch_sub(1) - 1); }
  template <typename U = T, typename = std::enable_if_t<std::is_integral_v<U>>>
  T operator++(int) { return fetch_add(1); }
  template <typename U = T, typename = std::enable_if_t<std::is_integral_v<U>>>
  T operator--(int) { return fetch_sub(1); }
  template <typename U = T, typename = std::enable_if_t<std::is_integral_v<U>>>
  T operator+=(T arg) { return static_cast<T>(fetch_add(arg) + arg); }
  template <typename U = T, typename = std::enable_if_t<std::is_integral_v<U>>>
  T operator-=(T arg) { return static_cast<T>(fetch_sub(arg) - arg); }
  static constexpr bool is_always_lock_free = true;
  bool is_lock_free() const noexcept { return true; }

  T load(std::memory_order order = std::memory_order_seq_cst, Where where = Where::current()) const {
    return detail::from_bits<T>(core_.load(order, where));
  }
  void store(T value, std::memory_order order = std::memory_order_seq_cst,
             Where where = Where::current()) {
    core_.store(detail::to_bits(value), order, where);
  }
  T exchange(T value, std::memory_order order = std::memory_order_seq_cst,
             Where where = Where::current()) {
    return rmw("exchange", [&](T) { return value; }, order, where);
  }
  bool compare_exchange_strong(T& expected, T desired, std::memory_order success,
                               std::memory_order failure, Where where = Where::current()) {
    std::uint64_t old = core_.rmw_begin("compare_exchange", where);
    if (old == detail::to_bits(expected)) {
      core_.rmw_finish(detail::to_bits(desired), success);
      return true;
    }
    core_.rmw_fail(failure);
    expected = detail::from_bits<T>(old);
    return false;
  }
  bool compare_exchange_strong(T& expected, T desired,
                               std::memory_order order = std::memory_order_seq_cst,
                               Where where = Where::current()) {
    return compare_exchange_strong(expected, desired, order, detail::load_part(order), where);
  }
  // Never fails spuriously in the model (as in loom).
  bool compare_exchange_weak(T& expected, T desired, std::memory_order success,
                             std::memory_order failure, Where where = Where::current()) {
    return compare_exchange_strong(expected, desired, success, failure, where);
  }
  bool compare_exchange_weak(T& expected, T desired,
                             std::memory_order order = std::memory_order_seq_cst,
                             Where where = Where::current()) {
    return compare_exchange_strong(expected, desired, order, detail::load_part(order), where);
  }

  template <typename U = T, typename = std::enable_if_t<std::is_integral_v<U>>>
  T fetch_add(T arg, std::memory_order order = std::memory_order_seq_cst, Where where = Where::current()) {
    return rmw("fetch_add", [&](T old) { return static_cast<T>(old + arg); }, order, where);
  }
  template <typename U = T, typename = std::enable_if_t<std::is_integral_v<U>>>
  T fetch_sub(T arg, std::memory_order order = std::memory_order_seq_cst, Where where = Where::current()) {
    return rmw("fetch_sub", [&](T old) { return static_cast<T>(old - arg); }, order, where);
  }
  template <typename U = T, typename = std::enable_if_t<std::is_integral_v<U>>>
  T fetch_or(T arg, std::memory_order order = std::memory_order_seq_cst, Where where = Where::current()) {
    return rmw("fetch_or", [&](T old) { return static_cast<T>(old | arg); }, order, where);
  }
  template <typename U = T, typename = std::enable_if_t<std::is_integral_v<U>>>
  T fetch_and(T arg, std::memory_order order = std::memory_order_seq_cst, Where where = Where::current()) {
    return rmw("fetch_and", [&](T old) { return static_cast<T>(old & arg); }, order, where);
  }
  template <typename U = T, typename = std::enable_if_t<std::is_integral_v<U>>>
  T fetch_xor(T arg, std::memory_order order = std::memory_order_seq_cst, Where where = Where::current()) {
    return rmw("fetch_xor", [&](T old) { return static_cast<T>(old ^ arg); }, order, where);
  }

 private:
  template <typename F>
  T rmw(const char* op, F&& next, std::memory_order order, Where where) {
    T old = detail::from_bits<T>(core_.rmw_begin(op, where));
    core_.rmw_finish(detail::to_bits(next(old)), order);
    return old;
  }

  mutable detail::AtomicCore core_;
};

inline void atomic_thread_fence(std::memory_order order,
                                Where where = Where::current()) {
  detail::fence(order, where);
}

class mutex {

 public:
  mutex(Where made = Where::current()) : core_(made) {}
  mutex(const mutex&) = delete;
  mutex& operator=(const mutex&) = delete;
  // No source location: std::lock_guard calls lock() with none.
  void lock() { core_.lock(Where()); }
  bool try_lock() { return core_.try_lock(Where()); }
  void unlock() { core_.unlock(); }

 private:
  friend class condition_variable;
  detail::MutexCore core_;
};

// No spurious wake-ups (as in loom); a timed wait times out only when no
// thread could run otherwise, so that a keep-alive is exercised without
// a clock.
class condition_variable {

 public:
  condition_variable(Where made = Where::current()) : core_(made) {}
  condition_variable(const condition_variable&) = delete;
  condition_variable& operator=(const condition_variable&) = delete;

  void notify_one(Where where = Where::current()) { core_.notify_one(where); }
  void notify_all(Where where = Where::current()) { core_.notify_all(where); }

  void wait(std::unique_lock<mutex>& lock, Where where = Where::current()) {
    core_.wait(lock.mutex()->core_, false, where);
  }
  template <typename Predicate>
  void wait(std::unique_lock<mutex>& lock, Predicate ready, Where where = Where::current()) {
    while (!ready()) wait(lock, where);
  }
  template <typename Rep, typename Period>
  std::cv_status wait_for(std::unique_lock<mutex>& lock, const std::chrono::duration<Rep, Period>&,
                          Where where = Where::current()) {
    return core_.wait(lock.mutex()->core_, true, where) ? std::cv_status::no_timeout
                                                       : std::cv_status::timeout;
  }
  template <typename Rep, typename Period, typename Predicate>
  bool wait_for(std::unique_lock<mutex>& lock, const std::chrono::duration<Rep, Period>& timeout,
                Predicate ready, Where where = Where::current()) {
    while (!ready()) {
      if (wait_for(lock, timeout, where) == std::cv_status::timeout) return ready();
    }
    return true;
  }

 private:
  detail::CondvarCore core_;
};

// std::thread's twin. The closure runs as a new modelled thread.
class thread {

 public:
  using id = int;

  thread() noexcept = default;
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, thread>>>
  explicit thread(F&& f, Where made = Where::current()) {
    using Closure = std::decay_t<F>;
    core_ = std::make_unique<detail::ThreadCore>(
        [](void* closure) { (*static_cast<Closure*>(closure))(); },
        new Closure(std::forward<F>(f)), [](void* closure) { delete static_cast<Closure*>(closure); },
        made);
  }
  thread(thread&&) noexcept = default;
  thread& operator=(thread&& other) noexcept {
    if (joinable()) check(false, "a joinable model::thread was assigned to (std::terminate)");
    core_ = std::move(other.core_);
    return *this;
  }
  ~thread() {
    // While an exception unwinds the body, that exception is the report.
    if (joinable() && std::uncaught_exceptions() == 0) check(false, "a joinable model::thread was destroyed (std::terminate)");
  }

  bool joinable() const noexcept { return core_ && core_->joinable(); }
  void join(Where where = Where::current()) { core_->join(where); }
  void detach() { core_->detach(); }
  id get_id() const noexcept { return core_ ? core_->id() : -1; }

 private:
  std::unique_ptr<detail::ThreadCore> core_;
};

namespace this_thread {
// The modelled thread running (0 runs the body), or -1 outside a body.
thread::id get_id() noexcept;
inline void yield(Where where = Where::current()) { yield_now(where); }
}  // namespace this_thread

// A plain value that threads take turns on; every access is checked
// against the others for a data race (two accesses, one a write, that no
// happens-before orders). rt::loom::UnsafeCell's model twin.
template <typename T>
class UnsafeCell {

 public:
  UnsafeCell(Where made = Where::current()) : core_(made) {}
  explicit UnsafeCell(T value, Where made = Where::current()) : value_(std::move(value)), core_(made) {}

  T read(Where where = Where::current()) const {
    core_.read(where);
    return value_;
  }
  void write(T value, Where where = Where::current()) {
    core_.write(where);
    value_ = std::move(value);
  }
  template <typename F>
  decltype(auto) with(F&& f, Where where = Where::current()) const {
    core_.read(where);
    return std::forward<F>(f)(&value_);
  }
  template <typename F>
  decltype(auto) with_mut(F&& f, Where where = Where::current()) {
    core_.write(where);
    return std::forward<F>(f)(&value_);
  }

 private:
  T value_{};
  detail::CellCore core_;
};

}  // namespace model
