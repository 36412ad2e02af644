// Task<T>: the course's coroutine type, the C++ counterpart of a Rust future.
//
// A Task is lazy: calling a coroutine that returns Task<T> only creates its
// frame. Nothing runs until the Task is spawned, handed to block_on, or
// co_awaited by another coroutine. Awaiting a Task runs it inline, in the
// same spawned task, by symmetric transfer: the awaiting coroutine jumps
// straight into the awaited one, and back when it finishes, as nested
// futures are polled inline in Rust. Only spawn creates a new task.
#pragma once

#include <concepts>
#include <coroutine>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include "rt/task/poll.hpp"

//@ chapters wakers..
#include "rt/task/frame_room.hpp"
//@ end
#include "rt/todo.hpp"

namespace rt {

template <class T = void>
class Task;

namespace detail {

// A leaf future (rt::Leaf: JoinHandle, yield_now, a channel's recv...).
template <class A>
concept LeafFuture = std::derived_from<std::remove_cvref_t<A>, LeafBase>;

// Awaits a leaf where it is. (Returning the leaf itself by reference from
// await_transform would be simpler, but g++ 12 then copies it.)
template <class L>
struct LeafAwaiter {
  L& leaf;
  bool await_ready() { return leaf.await_ready(); }
  void await_suspend(std::coroutine_handle<> at) { leaf.await_suspend(at); }
  decltype(auto) await_resume() { return leaf.await_resume(); }
};

// What every Task's promise has, whatever it returns.
class PromiseBase {
 public:
  //@ listing promise
  std::suspend_always initial_suspend() noexcept { return {}; }  // lazy

  // When a Task finishes, control goes back to whoever awaited it, or, for
  // the outermost Task, back to the poll that resumed it.
  struct FinalAwaiter {
    bool await_ready() noexcept { return false; }
    template <class Promise>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> self) noexcept {
      std::coroutine_handle<> next = self.promise().continuation_;
      return next ? next : std::noop_coroutine();
    }
    void await_resume() noexcept {}
  };
  FinalAwaiter final_suspend() noexcept { return {}; }
  //@ listing-end promise

  // Every co_await in a Task goes through one of these two, so that a
  // Task may await only another Task (by value: `co_await child()` or
  // `co_await std::move(task)`) or a leaf future. Anything else
  // (std::suspend_always, say) would suspend the task with no waker kept
  // anywhere, and it would never be polled again: if the compiler finds
  // no await_transform for your co_await, await a Task or an rt::Leaf.
  template <LeafFuture L>
  LeafAwaiter<std::remove_reference_t<L>> await_transform(L&& leaf) noexcept {
    return {leaf};
  }
  template <class U>
  auto await_transform(Task<U>&& task) noexcept {
    return std::move(task).operator co_await();
  }

  void unhandled_exception() noexcept { exception_ = std::current_exception(); }
  void set_continuation(std::coroutine_handle<> next) { continuation_ = next; }

 protected:
  void rethrow_if_failed() {
    if (exception_) std::rethrow_exception(exception_);
  }

 private:
  std::coroutine_handle<> continuation_;
  std::exception_ptr exception_;
};

//@ chapters wakers..
// Every frame has room in front for a task's cell (rt/task/frame_room.hpp).
template <class T>
class Promise : public PromiseBase, public AllocateWithRoom<T> {
//@ else
template <class T>
class Promise : public PromiseBase {
//@ end
 public:
  Task<T> get_return_object() noexcept;
  template <class U>
  void return_value(U&& value) {
    value_.emplace(std::forward<U>(value));
  }
  T take_result() {
    rethrow_if_failed();
    return std::move(*value_);
  }

 private:
  std::optional<T> value_;
};

template <>
//@ chapters wakers..
class Promise<void> : public PromiseBase, public AllocateWithRoom<void> {
//@ else
class Promise<void> : public PromiseBase {
//@ end
 public:
  Task<void> get_return_object() noexcept;
  void return_void() noexcept {}
  void take_result() { rethrow_if_failed(); }
};

}  // namespace detail

template <class T>
class [[nodiscard]] Task {
 public:
  using promise_type = detail::Promise<T>;
  using Handle = std::coroutine_handle<promise_type>;

  Task() = default;
  explicit Task(Handle handle) : handle_(handle) {}
  Task(Task&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      destroy();
      handle_ = std::exchange(other.handle_, {});
    }
    return *this;
  }
  ~Task() { destroy(); }

  // The runtime drives a Task through its handle; everyone else awaits it.
  Handle handle() const { return handle_; }
  bool done() const { return handle_.done(); }
  T take_result() { return handle_.promise().take_result(); }

  //@ listing nested_await
  // `co_await task` from inside another coroutine.
  struct Awaiter {
    Handle child;

    bool await_ready() const noexcept { return false; }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> parent) {
      //@ exercise executor nested_await
      child.promise().set_continuation(parent);
      //@ mutant executor asymmetric_transfer: resumes the child with a call and returns noop_coroutine, so every level of nesting takes stack
      return child;  // symmetric transfer: resume the child right now
      //@ instead
      child.resume();
      return std::noop_coroutine();
      //@ end
      //@ starter
      // TODO: make `child` resume `parent` when it finishes (its promise's
      // set_continuation), then return the handle to run next.
      // Hint: returning a handle from await_suspend resumes it at once, with
      // no new stack frame and no new task: that is symmetric transfer.
      (void)parent;
      throw Todo("@NN@ nested_await (@FILE@)");
      //@ end
    }
    T await_resume() { return child.promise().take_result(); }
  };
  Awaiter operator co_await() && { return Awaiter{handle_}; }
  //@ listing-end nested_await

 private:
  void destroy() {
    if (handle_) handle_.destroy();
  }

  Handle handle_;
};

namespace detail {

template <class T>
Task<T> Promise<T>::get_return_object() noexcept {
  return Task<T>(std::coroutine_handle<Promise<T>>::from_promise(*this));
}

inline Task<void> Promise<void>::get_return_object() noexcept {
  return Task<void>(std::coroutine_handle<Promise<void>>::from_promise(*this));
}

}  // namespace detail

}  // namespace rt
//@ chapters wakers..

// The cell's size fixes the room in front of every frame: it must be
// known wherever a Task coroutine is defined.
#include "rt/task/cell.hpp"
//@ end
