//@ file sync..
// mpsc: a bounded multi-producer, single-consumer channel. Mirrors
// tokio/src/sync/mpsc/{bounded,chan}.rs.
//
//   auto [tx, rx] = rt::mpsc::channel<int>(16);
//   co_await tx.send(1);                     // waits while 16 are queued
//   std::optional<int> v = co_await rx.recv();   // std::nullopt: closed
//
// Capacity is back-pressure: a send waits, without blocking its thread,
// while the channel holds `capacity` values, and the receiver's recv wakes
// it as it takes one out. As in Tokio the free slots are the permits of a
// semaphore (rt/sync/semaphore.hpp): send acquires one, recv releases one,
// and so waiting senders are served in the order they came.
//
// Closing, as in Tokio:
//  - when the last Sender is destroyed, recv() still returns every value
//    that is queued, then std::nullopt;
//  - when the Receiver is destroyed (or close() is called), every waiting
//    and every later send fails with SendError, which carries the value back.
//
// Tokio keeps the values in a lock-free linked list of 32-slot blocks and
// the receiver's waker in an AtomicWaker, so a send that finds a free slot
// takes no lock at all. Here a std::deque behind a mutex holds them.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

#include "rt/loom.hpp"
#include "rt/sync/semaphore.hpp"
#include "rt/task/poll.hpp"
#include "rt/todo.hpp"

namespace rt::mpsc {

// The receiver is gone; `value` is the value that was not sent.
template <class T>
class SendError : public std::runtime_error {
 public:
  explicit SendError(T value)
      : std::runtime_error("channel closed: the mpsc receiver was dropped"), value(std::move(value)) {}
  T value;
};

// What try_send did. Like Tokio's Result<(), TrySendError<T>>.
enum class TrySend { sent, full, closed };

template <class T>
struct TrySendResult {
  TrySend status;
  std::optional<T> value;  // the value back, unless it was sent
  bool ok() const { return status == TrySend::sent; }
};

namespace detail {

// What the senders and the receiver share. Tokio's Chan.
template <class T>
struct Chan {
  explicit Chan(std::size_t capacity) : capacity(capacity), semaphore(capacity) {}

  const std::size_t capacity;
  rt::detail::Semaphore semaphore;  // one permit per free slot; closed with the receiver

  loom::mutex mutex;  // guards what follows
  std::deque<T> queue;
  std::size_t senders = 1;
  bool rx_closed = false;
  Waker rx_waker;

  // Queues a value sent with a permit in hand; false if the receiver is gone.
  bool push(T& value) {
    Waker waker;  // destroyed after the unlock
    std::unique_lock lock(mutex);
    if (rx_closed) return false;
    queue.push_back(std::move(value));
    waker = std::move(rx_waker);
    lock.unlock();
    waker.wake();
    return true;
  }
};

}  // namespace detail

template <class T>
class Sender {
 public:
  explicit Sender(std::shared_ptr<detail::Chan<T>> chan) : chan_(std::move(chan)) {}
  // Copying a sender adds a producer (Tokio's Sender::clone).
  Sender(const Sender& other) : chan_(other.chan_) {
    if (!chan_) return;
    std::lock_guard lock(chan_->mutex);
    ++chan_->senders;
  }
  Sender(Sender&&) noexcept = default;
  Sender& operator=(Sender other) noexcept {
    std::swap(chan_, other.chan_);
    return *this;
  }
  ~Sender() { release(); }

  //@ listing send
  // `co_await tx.send(value)`: waits for a free slot, then queues the value.
  // Throws SendError<T> (with the value) if the receiver is gone.
  class [[nodiscard]] Send : public Leaf<Send> {
   public:
    Send(detail::Chan<T>& chan, T value)
        : chan_(chan), value_(std::move(value)), acquire_(chan_.semaphore.acquire()) {}

    bool poll(Context& cx) override {
      //@ exercise sync send_poll
      switch (acquire_.poll(cx)) {
        case rt::detail::Semaphore::Outcome::pending:
          return false;  // full: release() wakes us with a slot that is ours
        case rt::detail::Semaphore::Outcome::closed:
          return true;  // the receiver is gone: sent_ stays false
        case rt::detail::Semaphore::Outcome::acquired:
          sent_ = chan_.push(value_);
          return true;
      }
      return true;
      //@ starter
      // TODO: acquire a free slot with acquire_.poll(cx): pending means the
      // channel is full (report not ready); closed means the receiver is
      // gone (report ready, with sent_ still false); acquired means a slot
      // is ours: queue value_ with chan_.push, which wakes the receiver,
      // and record in sent_ whether it was queued.
      // Hint: the Acquire keeps its place in the semaphore's queue between
      // polls and gives up its slot if this future is destroyed, so this
      // poll needs no state of its own beyond sent_.
      (void)cx;
      throw Todo("@NN@ send_poll (@FILE@)");
      //@ end
    }
//@ chapters coop..
    bool cooperative() const override { return true; }  // spends the task's budget
//@ end
    void await_resume() {
      if (!sent_) throw SendError<T>(std::move(value_));
    }

   private:
    detail::Chan<T>& chan_;
    T value_;
    rt::detail::Semaphore::Acquire acquire_;
    bool sent_ = false;
  };
  //@ listing-end send

  // The sender must outlive the Send, as Tokio's send borrows its sender:
  // `co_await tx.send(value)` does.
  Send send(T value) { return Send(*chan_, std::move(value)); }

  // Queues the value if there is a free slot right now; never waits.
  TrySendResult<T> try_send(T value) {
    if (!chan_->semaphore.try_acquire()) {
      TrySend why = chan_->semaphore.is_closed() ? TrySend::closed : TrySend::full;
      return {why, std::move(value)};
    }
    if (!chan_->push(value)) return {TrySend::closed, std::move(value)};
    return {TrySend::sent, std::nullopt};
  }

  // The receiver is gone: every send fails.
  bool is_closed() const { return chan_->semaphore.is_closed(); }
  // Free slots right now.
  std::size_t capacity() const { return chan_->semaphore.available_permits(); }
  std::size_t max_capacity() const { return chan_->capacity; }

 private:
  void release() {
    if (!chan_) return;  // moved from
    Waker waker;  // destroyed after the unlock
    std::unique_lock lock(chan_->mutex);
    if (--chan_->senders == 0) waker = std::move(chan_->rx_waker);  // recv sees the close
    lock.unlock();
    waker.wake();
  }

  std::shared_ptr<detail::Chan<T>> chan_;
};

template <class T>
class Receiver {
 public:
  explicit Receiver(std::shared_ptr<detail::Chan<T>> chan) : chan_(std::move(chan)) {}
  Receiver(Receiver&&) noexcept = default;
  Receiver& operator=(Receiver&& other) noexcept {
    if (this != &other) {
      close_and_drain();
      chan_ = std::move(other.chan_);
    }
    return *this;
  }
  ~Receiver() { close_and_drain(); }

  //@ listing recv
  // `co_await rx.recv()`: the next value, or std::nullopt once every sender
  // is gone and the queue is empty.
  class [[nodiscard]] Recv : public Leaf<Recv> {
   public:
    explicit Recv(detail::Chan<T>& chan) : chan_(chan) {}

    bool poll(Context& cx) override {
      Waker replaced;  // destroyed after the unlock
      //@ exercise sync recv_poll
      std::unique_lock lock(chan_.mutex);
      if (!chan_.queue.empty()) {
        value_.emplace(std::move(chan_.queue.front()));
        chan_.queue.pop_front();
        lock.unlock();
        //@ mutant sync recv_keeps_slot: takes a value out but never gives its slot back, so the channel fills for good
        chan_.semaphore.release(1);  // a slot is free: wakes the oldest waiting sender
        //@ instead
        //@ end
        return true;
      }
      if (chan_.senders == 0 || chan_.rx_closed) return true;  // closed and drained
      //@ mutant sync recv_waker_in_second_lock: keeps its waker under a second lock, after unlocking from its look at the queue, so a value sent in between wakes nobody
      if (!chan_.rx_waker.will_wake(cx.waker())) replaced = std::exchange(chan_.rx_waker, cx.waker());
      //@ instead
      lock.unlock();
      lock.lock();
      if (!chan_.rx_waker.will_wake(cx.waker())) replaced = std::exchange(chan_.rx_waker, cx.waker());
      //@ end
      return false;
      //@ starter
      // TODO: under chan_.mutex: if a value is queued, move it into value_,
      // pop it, and (after unlocking) give its slot back with
      // chan_.semaphore.release(1), then report ready. If the queue is empty
      // and no sender is left (or the receiver closed), report ready with
      // value_ empty. Otherwise keep a clone of cx.waker() in chan_.rx_waker
      // (replace it only when it would not wake the same task) and report
      // not ready.
      // Hint: a sender queues its value and takes rx_waker under the same
      // mutex, so checking the queue and storing the waker under one lock
      // is what makes a lost wake-up impossible.
      (void)cx;
      (void)replaced;
      throw Todo("@NN@ recv_poll (@FILE@)");
      //@ end
    }
//@ chapters coop..
    bool cooperative() const override { return true; }  // spends the task's budget
//@ end
    std::optional<T> await_resume() { return std::move(value_); }

   private:
    detail::Chan<T>& chan_;
    std::optional<T> value_;
  };
  //@ listing-end recv

  // The receiver must outlive the Recv: `co_await rx.recv()` does.
  Recv recv() { return Recv(*chan_); }

  // A value if one is queued; std::nullopt if empty (is_closed() then says
  // whether more can come). Tokio's TryRecvError tells the two apart.
  std::optional<T> try_recv() {
    std::unique_lock lock(chan_->mutex);
    if (chan_->queue.empty()) return std::nullopt;
    std::optional<T> value(std::move(chan_->queue.front()));
    chan_->queue.pop_front();
    lock.unlock();
    chan_->semaphore.release(1);
    return value;
  }

  // Refuses every later send (waiting senders get SendError); what is queued
  // can still be received. Tokio's Receiver::close.
  void close() {
    {
      std::lock_guard lock(chan_->mutex);
      chan_->rx_closed = true;
    }
    chan_->semaphore.close();  // wakes the senders waiting for a slot
  }

  // Closed and drained: recv() would return std::nullopt at once.
  bool is_closed() {
    std::lock_guard lock(chan_->mutex);
    return chan_->queue.empty() && (chan_->senders == 0 || chan_->rx_closed);
  }

 private:
  void close_and_drain() {
    if (!chan_) return;  // moved from
    close();
    auto chan = std::move(chan_);
    std::deque<T> dropped;  // values nobody will receive die after the unlock
    std::lock_guard lock(chan->mutex);
    dropped.swap(chan->queue);
  }

  std::shared_ptr<detail::Chan<T>> chan_;
};

// A bounded channel: `capacity` values can wait in it (at least 1).
template <class T>
std::pair<Sender<T>, Receiver<T>> channel(std::size_t capacity) {
  if (capacity == 0) throw std::invalid_argument("mpsc bounded channel requires buffer > 0");
  auto chan = std::make_shared<detail::Chan<T>>(capacity);
  return {Sender<T>(chan), Receiver<T>(chan)};
}

}  // namespace rt::mpsc
