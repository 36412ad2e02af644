//@ file sync..
// oneshot: a channel for exactly one value. Mirrors tokio/src/sync/oneshot.rs.
//
//   auto [tx, rx] = rt::oneshot::channel<int>();
//   rt::spawn(worker(std::move(tx)));        // the worker calls tx.send(42)
//   int answer = co_await rx;                // or throws oneshot::RecvError
//
// The receiver learns when the sender is destroyed without sending: awaiting
// it then throws RecvError, where Tokio's returns Err(RecvError). send()
// gives the value back when the receiver is gone (Tokio's Err(value)).
//
// Tokio's oneshot takes no lock: one atomic state word (VALUE_SENT, CLOSED,
// RX_TASK_SET, TX_TASK_SET) orders the value and two waker cells. Here a
// mutex guards the same fields.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

#include "rt/loom.hpp"
#include "rt/task/poll.hpp"
#include "rt/todo.hpp"

namespace rt::oneshot {

// The sender was destroyed without sending.
class RecvError : public std::runtime_error {
 public:
  RecvError() : std::runtime_error("channel closed: the oneshot sender was dropped") {}
};

namespace detail {

template <class T>
struct Shared {
  loom::mutex mutex;
  std::optional<T> value;
  bool sender_gone = false;    // sent, or destroyed without sending
  bool receiver_gone = false;  // destroyed, or closed
  Waker rx_waker;
};

}  // namespace detail

template <class T>
class Sender {
 public:
  explicit Sender(std::shared_ptr<detail::Shared<T>> shared) : shared_(std::move(shared)) {}
  Sender(Sender&&) noexcept = default;
  Sender& operator=(Sender&& other) noexcept {
    if (this != &other) {
      close();
      shared_ = std::move(other.shared_);
    }
    return *this;
  }
  ~Sender() { close(); }

  // Sends the value, and gives up the sender. Returns the value back when
  // the receiver is gone already (Tokio's Err(value)), else nothing.
  std::optional<T> send(T value) {
    auto shared = std::move(shared_);
    if (!shared) throw std::logic_error("oneshot::Sender::send on a sender that was used");
    Waker waker;  // destroyed after the unlock
    std::unique_lock lock(shared->mutex);
    if (shared->receiver_gone) return std::optional<T>(std::move(value));
    shared->value.emplace(std::move(value));
    shared->sender_gone = true;
    waker = std::move(shared->rx_waker);
    lock.unlock();
    waker.wake();
    return std::nullopt;
  }

  // True once the receiver is destroyed: nobody will read a value.
  bool is_closed() const {
    if (!shared_) return true;
    std::lock_guard lock(shared_->mutex);
    return shared_->receiver_gone;
  }

 private:
  // Destroyed without sending: the receiver must hear of it.
  void close() {
    auto shared = std::move(shared_);
    if (!shared) return;
    Waker waker;
    std::unique_lock lock(shared->mutex);
    shared->sender_gone = true;
    waker = std::move(shared->rx_waker);
    lock.unlock();
    waker.wake();
  }

  std::shared_ptr<detail::Shared<T>> shared_;
};

// The receiver is itself the leaf future: `co_await rx` waits for the value.
template <class T>
class Receiver : public Leaf<Receiver<T>> {
 public:
  explicit Receiver(std::shared_ptr<detail::Shared<T>> shared) : shared_(std::move(shared)) {}
  Receiver(Receiver&&) noexcept = default;
  Receiver& operator=(Receiver&& other) noexcept {
    if (this != &other) {
      close();
      shared_ = std::move(other.shared_);
    }
    return *this;
  }
  ~Receiver() override { close(); }

  //@ listing recv_poll
  // Ready once a value is there, or once the sender is gone without one.
  bool poll(Context& cx) override {
    Waker replaced;  // destroyed after the unlock
    //@ exercise sync oneshot_recv
    //@ mutant sync oneshot_looks_unlocked: looks for the value before taking the lock, so a send between the look and the lock finds no waker to wake
    std::lock_guard lock(shared_->mutex);
    //@ mutant sync oneshot_ignores_sender_gone: is ready only once a value is there, so a sender dropped without sending wakes a receiver that waits again, for ever
    if (shared_->value || shared_->sender_gone) return true;
    //@ instead
    if (shared_->value) return true;
    //@ end
    //@ instead
    if (shared_->value || shared_->sender_gone) return true;
    std::lock_guard lock(shared_->mutex);
    //@ end
    //@ mutant sync oneshot_keeps_first_waker: keeps the first waker it was handed, so a later poll from another task is never woken
    if (!shared_->rx_waker.will_wake(cx.waker())) replaced = std::exchange(shared_->rx_waker, cx.waker());
    //@ instead
    if (!shared_->rx_waker) shared_->rx_waker = cx.waker();
    //@ end
    return false;
    //@ starter
    // TODO: under shared_->mutex, report ready when a value is there or the
    // sender is gone; otherwise keep a clone of cx.waker() in
    // shared_->rx_waker (unless it will_wake the same task already) and
    // report pending.
    // Hint: the sender reads rx_waker under the same mutex, so a value sent
    // while you look cannot slip between your check and your waker.
    (void)cx;
    (void)replaced;
    throw Todo("@NN@ oneshot_recv (@FILE@)");
    //@ end
  }
  //@ listing-end recv_poll
//@ chapters coop..
  bool cooperative() const override { return true; }  // spends the task's budget
//@ end
  T await_resume() {
    std::lock_guard lock(shared_->mutex);
    if (!shared_->value) throw RecvError();
    T value = std::move(*shared_->value);
    shared_->value.reset();
    return value;
  }

  // The value if it was sent; std::nullopt if not yet, or if the sender is
  // gone (is_terminated() tells which).
  std::optional<T> try_recv() {
    std::lock_guard lock(shared_->mutex);
    return std::exchange(shared_->value, std::nullopt);
  }
  // Nothing more can arrive: a value was taken, or the sender is gone.
  bool is_terminated() {
    std::lock_guard lock(shared_->mutex);
    return shared_->sender_gone && !shared_->value;
  }

 private:
  void close() {
    auto shared = std::move(shared_);
    if (!shared) return;
    std::optional<T> dropped;  // a value never received dies after the unlock
    Waker waker;
    std::lock_guard lock(shared->mutex);
    shared->receiver_gone = true;
    dropped = std::move(shared->value);
    waker = std::move(shared->rx_waker);
  }

  std::shared_ptr<detail::Shared<T>> shared_;
};

template <class T>
std::pair<Sender<T>, Receiver<T>> channel() {
  auto shared = std::make_shared<detail::Shared<T>>();
  return {Sender<T>(shared), Receiver<T>(shared)};
}

}  // namespace rt::oneshot
