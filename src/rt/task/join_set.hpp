//@ file capstone..
// JoinSet<T>: a set of spawned tasks, joined in the order they finish.
// Mirrors tokio::task::JoinSet (tokio/src/task/join_set.rs) and the
// IdleNotifiedSet under it (tokio/src/util/idle_notified_set.rs).
//
//   rt::JoinSet<int> set;
//   for (int i = 0; i < 10; ++i) set.spawn(work(i));
//   while (std::optional<int> value = co_await set.join_next()) use(*value);
//
// Awaiting every JoinHandle in turn would wait for the slowest first. The
// set instead gives each task an entry with a waker of its own, stored as
// the task's join waker: the task's completion wakes the entry, which
// moves from the set's idle list to its notified list and wakes whoever
// waits in join_next. join_next only ever looks at the notified list, so
// it costs O(1) however many tasks are still running.
//
// Destroying the set aborts its tasks, as Tokio's Drop does.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "rt/runtime.hpp"
#include "rt/task/join_set_list.hpp"
#include "rt/task/poll.hpp"

namespace rt {

namespace detail {

// One task of a set: the untyped entry, and the task's JoinHandle.
template <class T>
class JoinSetTask final : public JoinSetEntry {
 public:
  JoinSetTask(std::shared_ptr<JoinSetList> list, JoinHandle<T> handle)
      : JoinSetEntry(std::move(list)), handle_(std::move(handle)) {}

  bool poll_join(Context& cx) override { return handle_->poll(cx); }
  void abort() override { handle_->abort(); }
  void drop_handle() override { handle_.reset(); }
  // The value, or a JoinError; once, after poll_join said it is ready.
  T take() { return handle_->await_resume(); }

 private:
  std::optional<JoinHandle<T>> handle_;  // until the entry leaves the set
};

}  // namespace detail

template <class T>
class JoinSet {
  // What join_next gives: the next value, or nothing when the set is empty.
  using Next = std::conditional_t<std::is_void_v<T>, bool, std::optional<T>>;

 public:
  JoinSet() : list_(std::make_shared<detail::JoinSetList>()) {}
  JoinSet(const JoinSet&) = delete;
  JoinSet& operator=(const JoinSet&) = delete;
  ~JoinSet() {
    list_->abort_all();
    list_->detach_all();
  }

  // Spawns `task` on the current runtime, into the set.
  void spawn(Task<T> task) { insert(rt::spawn(std::move(task))); }
  // Spawns `task` on the runtime of `handle`, into the set.
  template <class H>
  void spawn_on(Task<T> task, const H& handle) { insert(handle.spawn(std::move(task))); }

  //@ listing join_next
  // The future of join_next: a leaf, so that rt::select can wait on it.
  class [[nodiscard]] JoinNext : public Leaf<JoinNext> {
   public:
    explicit JoinNext(detail::JoinSetList& list) : list_(list) {}
    JoinNext(const JoinNext&) = delete;
    JoinNext& operator=(const JoinNext&) = delete;
    ~JoinNext() {
      if (done_) detail::JoinSetEntry::leave(done_);  // a value nobody took
    }

    bool poll(Context& cx) override {
      if (done_ || empty_) return true;
      done_ = list_.poll_next(cx, empty_);
      return done_ || empty_;
    }
    bool cooperative() const override { return true; }  // spends the task's budget, as Tokio's does

    // The finished task's value (a JoinError if it threw or was aborted),
    // or the empty answer.
    Next await_resume() {
      if (!done_) return Next{};
      detail::JoinSetEntry* entry = std::exchange(done_, nullptr);
      struct Leave {  // the entry goes, whatever take() does
        detail::JoinSetEntry* entry;
        ~Leave() { detail::JoinSetEntry::leave(entry); }
      } leave{entry};
      auto& task = static_cast<detail::JoinSetTask<T>&>(*entry);
      if constexpr (std::is_void_v<T>) {
        task.take();
        return true;
      } else {
        return Next(task.take());
      }
    }

   private:
    detail::JoinSetList& list_;
    detail::JoinSetEntry* done_ = nullptr;  // taken out of the set, with the set's reference
    bool empty_ = false;
  };
  //@ listing-end join_next

  // `co_await set.join_next()`: the next task to finish, in the order they
  // finish; std::nullopt (false for JoinSet<void>) once the set is empty.
  JoinNext join_next() { return JoinNext(*list_); }

  // Cancels every task; each still comes out of join_next, as a JoinError
  // whose is_cancelled() is true (unless it finished first).
  void abort_all() { list_->abort_all(); }
  // Forgets every task: they run on, and their values are dropped.
  void detach_all() { list_->detach_all(); }
  // Aborts every task and waits for them all to end.
  Task<> shutdown() {
    //@ mutant capstone shutdown_never_aborts: waits for the tasks to end without aborting them
    abort_all();
    //@ instead
    //@ end
    for (;;) {
      try {
        if (!(co_await join_next())) co_return;
      } catch (const JoinError&) {
        // an aborted task: that is what we asked for
      }
    }
  }

  // Tasks in the set: running, or finished and not yet joined.
  std::size_t len() const { return list_->len(); }
  bool is_empty() const { return len() == 0; }

 private:
  void insert(JoinHandle<T> handle) {
    list_->insert(new detail::JoinSetTask<T>(list_, std::move(handle)));
  }

  std::shared_ptr<detail::JoinSetList> list_;
};

}  // namespace rt
