// What chapter 02's model tests build their tasks from, without a runtime:
// a real task Header (its state word, its poller, its join waker) driven by
// the real harness (rt::detail::poll, complete, poll_join,
// drop_join_handle) and the real task waker, with a scheduler and a typed
// part of the test's own. The typed part does what a spawned task's Cell
// does (store the output, destroy it, free the task), and counts it; its
// output is a loom::UnsafeCell, so that the checker reports two threads
// that touch it without a happens-before between them.
#pragma once

#include <atomic>
#include <memory>
#include <utility>

#include "model.hpp"
#include "rt/rt.hpp"
#include "rt/task/harness.hpp"

namespace wakers_model {

using rt::detail::Header;

// The scheduler: a run queue reduced to a count, since it only ever holds
// this one task. schedule() takes a Notified reference; take() hands it to
// whoever polls next.
class CountingQueue final : public rt::detail::Schedule {
 public:
  void schedule(Header*) override {
    scheduled_.fetch_add(1, std::memory_order_relaxed);
    queued_.fetch_add(1, std::memory_order_release);
  }
  // The task completed: the owned list unlinks it and hands back its reference.
  bool release(Header&) override { return true; }

  // A queued Notified, taken; false when none is queued.
  bool take() {
    int queued = queued_.load(std::memory_order_acquire);
    while (queued > 0) {
      if (queued_.compare_exchange_weak(queued, queued - 1, std::memory_order_acquire)) return true;
    }
    return false;
  }
  // How many times the task was queued, in all.
  int scheduled() const { return scheduled_.load(std::memory_order_relaxed); }

 private:
  model::atomic<int> queued_{0};
  model::atomic<int> scheduled_{0};
};

// A leaf that is pending on its first `pending` polls, then ready. On its
// first poll it keeps a clone of the waker it is handed in `slot` (if
// given), and then raises `kept`.
class Step : public rt::Leaf<Step> {
 public:
  Step(int pending, rt::Waker* slot, model::atomic<bool>* kept) : pending_(pending), slot_(slot), kept_(kept) {}
  bool poll(rt::Context& cx) override {
    if (slot_ && !*slot_) {
      *slot_ = cx.waker();
      kept_->store(true, std::memory_order_release);
    }
    return polls_++ >= pending_;
  }
  void await_resume() const noexcept {}

 private:
  int pending_;
  int polls_ = 0;
  rt::Waker* slot_;
  model::atomic<bool>* kept_;
};

inline rt::Task<> body(int pending, rt::Waker* slot, model::atomic<bool>* kept) {
  co_await Step(pending, slot, kept);
}

// A spawned task as it is the moment spawn() returns: NOTIFIED, its
// JoinHandle interested, three references (the owned list's, the queued
// Notified's, the JoinHandle's), and that Notified already in the queue.
class ModelTask final : public Header {
 public:
  // Ready after `pending` pending polls; keeps its first waker in `slot`.
  explicit ModelTask(int pending, rt::Waker* slot = nullptr, model::atomic<bool>* kept = nullptr)
      : ModelTask(std::make_shared<CountingQueue>(), body(pending, slot, kept)) {}

  CountingQueue& queue() { return static_cast<CountingQueue&>(*scheduler); }

  // A worker's turn: polls the task if a Notified of it is queued.
  bool run_once() {
    if (!queue().take()) return false;
    rt::detail::poll(this);
    return true;
  }

  int freed() const { return freed_.load(); }
  int outputs_dropped() const { return outputs_dropped_.load(); }
  int cancelled() const { return cancelled_.load(); }
  // The JoinHandle reads the output once the task is complete.
  int read_output() const { return output_.read(); }

  static constexpr int kValue = 7;      // what a finished task leaves
  static constexpr int kCancelled = -1;

 private:
  ModelTask(std::shared_ptr<CountingQueue> queue, rt::Task<> future)
      : Header(&kVTable, queue, rt::detail::Poller(future.handle())), future_(std::move(future)) {
    queue->schedule(this);  // spawn's Notified
  }

  static ModelTask& self(Header* task) { return *static_cast<ModelTask*>(task); }

  static void store_output(Header* task) {
    self(task).output_.write(kValue);
    self(task).future_ = rt::Task<>();  // the finished frame goes
  }
  static void cancel(Header* task) {
    self(task).future_ = rt::Task<>();
    self(task).output_.write(kCancelled);
    self(task).cancelled_.fetch_add(1);
  }
  static void drop_output(Header* task) {
    self(task).output_.write(0);
    self(task).outputs_dropped_.fetch_add(1);
  }
  // What a Cell's destruction does to the output and the join waker.
  static void dealloc(Header* task) {
    ModelTask& cell = self(task);
    model::check(cell.freed_.fetch_add(1) == 0,
                 "the task was freed twice: two owners each thought they dropped the last reference");
    cell.output_.write(0);
    cell.join_waker = rt::Waker();
  }

  static constexpr rt::detail::TaskVTable kVTable{&store_output, &cancel, &drop_output, &dealloc};

  rt::Task<> future_;
  rt::loom::UnsafeCell<int> output_;
  std::atomic<int> freed_{0};
  std::atomic<int> outputs_dropped_{0};
  std::atomic<int> cancelled_{0};
};

// Checks, once every thread is done, that the task was freed exactly once.
inline void check_freed_once(const ModelTask& task) {
  model::check(task.freed() == 1,
               "every reference was dropped and the task was never freed: a reference was lost (a leak)");
}

}  // namespace wakers_model
