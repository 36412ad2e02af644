//@ file capstone..
// JoinSetList: the untyped heart of a JoinSet: its entries, in two lists,
// and the wakers that move them. Mirrors tokio/src/util/idle_notified_set.rs.
//
// Every entry is in exactly one list while it is in the set:
//   idle      its task has not woken the entry since join_next last looked;
//   notified  it has: join_next should poll its JoinHandle.
// An entry's waker moves it from idle to notified, once, and wakes the
// task waiting in join_next. One mutex guards both lists and the waiter.
//
// An entry outlives the set if its task still holds the entry's waker, so
// entries are reference counted: the set holds one reference, each clone
// of the entry's waker another.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>

#include "rt/loom.hpp"
#include "rt/task/context.hpp"
#include "rt/task/waker.hpp"

namespace rt::detail {

class JoinSetList;

class JoinSetEntry {
 public:
  enum class Where { idle, notified, gone };

  explicit JoinSetEntry(std::shared_ptr<JoinSetList> list) : list_(std::move(list)) {}
  virtual ~JoinSetEntry() = default;
  JoinSetEntry(const JoinSetEntry&) = delete;
  JoinSetEntry& operator=(const JoinSetEntry&) = delete;

  // The task's JoinHandle: ready once it finished, else keeps cx's waker.
  virtual bool poll_join(Context& cx) = 0;
  virtual void abort() = 0;
  // Drops the JoinHandle. It must go when the entry leaves the set: the
  // task keeps the entry's waker for as long as its JoinHandle lives, so
  // an entry that kept its handle would keep itself, and the task, alive.
  virtual void drop_handle() = 0;

  // A waker that wakes this entry, borrowing the set's reference.
  RawWaker raw_waker() { return RawWaker{this, &vtable}; }
  // Gives up one reference; the last frees the entry.
  static void release(JoinSetEntry* entry);
  // An entry out of the set: its JoinHandle, then the set's reference.
  static void leave(JoinSetEntry* entry) {
    entry->drop_handle();  // the set's reference keeps the entry alive meanwhile
    release(entry);
  }

 private:
  friend class JoinSetList;

  static RawWaker clone(const void* data);
  static void wake(const void* data);
  static void wake_by_ref(const void* data);
  static void drop(const void* data);
  static const RawWakerVTable vtable;

  std::shared_ptr<JoinSetList> list_;  // the lists outlive every entry
  loom::atomic<std::size_t> refs_{1};   // the set's, from the start
  // The rest is guarded by the list's mutex.
  Where where_ = Where::idle;
  JoinSetEntry* prev_ = nullptr;
  JoinSetEntry* next_ = nullptr;
};

class JoinSetList {
 public:
  JoinSetList() = default;
  JoinSetList(const JoinSetList&) = delete;
  JoinSetList& operator=(const JoinSetList&) = delete;

  // Adds a new entry, idle, and gives its task the entry's waker.
  void insert(JoinSetEntry* entry);

  // An entry's waker was woken: its task has finished (or says so).
  void notify(JoinSetEntry& entry);

  // join_next's poll: the entry of a finished task, taken out of the set
  // with the set's reference; or nullptr, with `empty` true when the set
  // has no entry at all, else having kept cx's waker (pending).
  JoinSetEntry* poll_next(Context& cx, bool& empty);

  void abort_all();
  void detach_all();
  std::size_t len() const;

 private:
  struct List {
    JoinSetEntry* head = nullptr;
    JoinSetEntry* tail = nullptr;
    void push_back(JoinSetEntry& entry);
    void remove(JoinSetEntry& entry);
  };

  // Under mutex_: unlinks `entry` from whichever list holds it.
  void unlink(JoinSetEntry& entry);
  // Polls `entry`'s JoinHandle with the entry's own waker.
  static bool poll_entry(JoinSetEntry& entry);

  mutable loom::mutex mutex_;
  List idle_;
  List notified_;
  std::size_t len_ = 0;
  Waker waiter_;  // the task in join_next, if it waits
};

}  // namespace rt::detail
