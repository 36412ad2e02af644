//@ file timers..
// TimerEntry: one timer, as the wheel links it. Mirrors the TimerShared of
// Tokio's runtime/time/entry.rs.
//
// Intrusive: a Sleep owns its entry, and the wheel links entries through
// the pointers inside them, so that registering allocates nothing and
// removing one is O(1). Every field is guarded by the time driver's mutex;
// the state, which a Sleep's owner and the driver both reach, is a
// loom::UnsafeCell, so that a model test reports any access to it without
// that mutex as a data race.
#pragma once

#include <cstdint>

#include "rt/loom.hpp"
#include "rt/task/waker.hpp"

namespace rt::detail {

//@ listing timer_entry
struct TimerEntry {
  enum class State { idle, registered, fired };

  std::uint64_t deadline = 0;  // in ticks (milliseconds since the driver started)
  loom::UnsafeCell<State> state{State::idle};
  Waker waker;                 // the task to wake when it fires
  // Where the wheel keeps it while registered: a level and a slot, or the
  // pending list of entries that are due.
  unsigned level = 0;
  unsigned slot = 0;
  bool pending = false;
  TimerEntry* prev = nullptr;
  TimerEntry* next = nullptr;
};
//@ listing-end timer_entry

// A doubly linked list of entries, linked through the entries themselves.
class EntryList {
 public:
  bool empty() const { return head_ == nullptr; }
  void push_front(TimerEntry* entry);
  TimerEntry* pop_back();
  void remove(TimerEntry* entry);
  // The whole list, taken out of here.
  EntryList take() {
    EntryList taken = *this;
    head_ = tail_ = nullptr;
    return taken;
  }

 private:
  TimerEntry* head_ = nullptr;
  TimerEntry* tail_ = nullptr;
};

inline void EntryList::push_front(TimerEntry* entry) {
  entry->prev = nullptr;
  entry->next = head_;
  if (head_) head_->prev = entry;
  else tail_ = entry;
  head_ = entry;
}

inline TimerEntry* EntryList::pop_back() {
  TimerEntry* entry = tail_;
  if (entry) remove(entry);
  return entry;
}

inline void EntryList::remove(TimerEntry* entry) {
  if (entry->prev) entry->prev->next = entry->next;
  else head_ = entry->next;
  if (entry->next) entry->next->prev = entry->prev;
  else tail_ = entry->prev;
  entry->prev = entry->next = nullptr;
}

}  // namespace rt::detail
