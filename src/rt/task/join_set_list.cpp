//@ file capstone..
// The JoinSet's lists and entry wakers, compiled once per runtime; see
// join_set_list.hpp.
#include "rt/task/join_set_list.hpp"

#include <utility>

#include "rt/todo.hpp"

namespace rt::detail {

const RawWakerVTable JoinSetEntry::vtable = {&JoinSetEntry::clone, &JoinSetEntry::wake,
                                             &JoinSetEntry::wake_by_ref, &JoinSetEntry::drop};

namespace {

JoinSetEntry* entry_of(const void* data) { return static_cast<JoinSetEntry*>(const_cast<void*>(data)); }

}  // namespace

RawWaker JoinSetEntry::clone(const void* data) {
  // relaxed: a new reference is made from a live one, which keeps the entry alive meanwhile
  entry_of(data)->refs_.fetch_add(1, std::memory_order_relaxed);
  return RawWaker{data, &vtable};
}

void JoinSetEntry::wake(const void* data) {
  wake_by_ref(data);
  drop(data);
}

void JoinSetEntry::wake_by_ref(const void* data) {
  JoinSetEntry* entry = entry_of(data);
  entry->list_->notify(*entry);
}

void JoinSetEntry::drop(const void* data) { release(entry_of(data)); }

void JoinSetEntry::release(JoinSetEntry* entry) {
  // acq_rel: the last one to leave sees every other holder's writes before it frees
  if (entry->refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete entry;
}

void JoinSetList::List::push_back(JoinSetEntry& entry) {
  entry.prev_ = tail;
  entry.next_ = nullptr;
  if (tail) {
    tail->next_ = &entry;
  } else {
    head = &entry;
  }
  tail = &entry;
}

void JoinSetList::List::remove(JoinSetEntry& entry) {
  (entry.prev_ ? entry.prev_->next_ : head) = entry.next_;
  (entry.next_ ? entry.next_->prev_ : tail) = entry.prev_;
  entry.prev_ = entry.next_ = nullptr;
}

void JoinSetList::unlink(JoinSetEntry& entry) {
  if (entry.where_ == JoinSetEntry::Where::idle) idle_.remove(entry);
  if (entry.where_ == JoinSetEntry::Where::notified) notified_.remove(entry);
  if (entry.where_ != JoinSetEntry::Where::gone) --len_;
  entry.where_ = JoinSetEntry::Where::gone;
}

//@ listing join_set_insert
bool JoinSetList::poll_entry(JoinSetEntry& entry) {
  WakerRef waker(entry.raw_waker());
  Context cx(waker.get());
  return entry.poll_join(cx);
}

void JoinSetList::insert(JoinSetEntry* entry) {
  {
    std::lock_guard lock(mutex_);
    idle_.push_back(*entry);
    ++len_;
  }
  // The task's join waker is now the entry's: its completion moves the
  // entry. A task that finished already wakes it at once.
  if (poll_entry(*entry)) notify(*entry);
}
//@ listing-end join_set_insert

//@ listing join_set_notify
void JoinSetList::notify(JoinSetEntry& entry) {
  //@ exercise capstone notify
  //@ mutant capstone notify_wakes_first: takes the waiter and wakes it before the entry is in the notified list
  //@ mutant capstone notify_unlocked: moves the entry and takes the waiter without the lock
  Waker waiter;
  {
    std::lock_guard lock(mutex_);
    //@ instead
  Waker waiter;
  {
    //@ end
    // Only an idle entry moves: a notified one is queued already, and one
    // that left the set belongs to no list. (A task that completes on one
    // thread while another detaches the set wakes a gone entry: dropping
    // the JoinHandle cannot take the waker back from a completing task.)
    if (entry.where_ != JoinSetEntry::Where::idle) return;
    idle_.remove(entry);
    notified_.push_back(entry);
    entry.where_ = JoinSetEntry::Where::notified;
    waiter = std::move(waiter_);
  }
  // Outside the lock: waking may run the waiter's scheduler code, which
  // must not find this lock held.
  //@ mutant capstone notify_wakes_nobody: moves the entry but leaves the waiter asleep
  waiter.wake();
  //@ instead
  //@ end
  //@ instead
  Waker waiter;
  {
    std::lock_guard lock(mutex_);
    if (entry.where_ != JoinSetEntry::Where::idle) return;
    waiter = std::move(waiter_);
  }
  waiter.wake();
  std::lock_guard lock(mutex_);
  idle_.remove(entry);
  notified_.push_back(entry);
  entry.where_ = JoinSetEntry::Where::notified;
  //@ end
  //@ starter
  // TODO: the entry's task finished (its waker was woken): make join_next
  // find it.
  //  - under mutex_: only an entry that is idle moves (where_ says where it
  //    is: a notified one is queued already, a gone one has left the set
  //    and belongs to no list); unlink it from idle_, append it to
  //    notified_, set where_, and take the waiting task's waker (waiter_);
  //  - then wake that waker, after unlocking.
  // Hint: a JoinSet's task can finish after the set forgot it
  // (detach_all). What must its waker then do?
  (void)entry;
  throw Todo("@NN@ notify (@FILE@)");
  //@ end
}
//@ listing-end join_set_notify

//@ listing join_set_poll_next
JoinSetEntry* JoinSetList::poll_next(Context& cx, bool& empty) {
  //@ exercise capstone poll_next
  JoinSetEntry* entry;
  Waker replaced;  // dropped after unlocking: it may hold a task's last reference
  {
    //@ mutant capstone poll_next_waker_unlocked: looks at the lists under the lock but leaves its waker after unlocking, so a completion in between wakes nobody
    std::lock_guard lock(mutex_);
    entry = notified_.head;
    if (!entry) {
      empty = len_ == 0;
      // Kept under the lock that notify takes: a completion after this
      // line finds the waker.
      //@ mutant capstone poll_next_keeps_no_waker: waits without leaving its waker, so the next completion wakes nobody
      if (!empty) replaced = std::exchange(waiter_, cx.waker());
      //@ instead
      //@ end
      return nullptr;
    }
    //@ instead
    std::unique_lock lock(mutex_);
    entry = notified_.head;
    if (!entry) {
      empty = len_ == 0;
      lock.unlock();
      if (!empty) replaced = std::exchange(waiter_, cx.waker());
      return nullptr;
    }
    //@ end
    // Back to idle while its JoinHandle is polled: if the poll says not
    // ready, the entry's next wake must move it again.
    notified_.remove(*entry);
    idle_.push_back(*entry);
    entry->where_ = JoinSetEntry::Where::idle;
  }
  if (poll_entry(*entry)) {
    std::lock_guard lock(mutex_);
    //@ mutant capstone poll_next_keeps_entry: gives the value but leaves the entry in the set
    unlink(*entry);
    //@ instead
    entry->refs_.fetch_add(1, std::memory_order_relaxed);
    //@ end
    return entry;  // the set's reference goes with it
  }
  // Woken, yet not finished: come back for the others later, rather than
  // loop here over every entry (Tokio does the same).
  cx.waker().wake_by_ref();
  return nullptr;
  //@ starter
  // TODO: join_next's poll. Look at the first entry of notified_ (under
  // mutex_):
  //  - none: set `empty` when the set has no entry at all (len_ == 0);
  //    otherwise keep cx's waker in waiter_, so that notify() wakes this
  //    task; return nullptr either way;
  //  - one: move it back to idle_ (where_ too) before polling it, then,
  //    after unlocking, poll its JoinHandle with the entry's own waker
  //    (poll_entry). Ready: take it out of the set (unlink, under the
  //    lock) and return it. Not ready: ask to be polled again
  //    (cx.waker().wake_by_ref()) and return nullptr.
  // Hint: why must the entry be idle again before its JoinHandle is
  // polled, and not after?
  (void)cx;
  (void)empty;
  throw Todo("@NN@ poll_next (@FILE@)");
  //@ end
}
//@ listing-end join_set_poll_next

void JoinSetList::abort_all() {
  std::lock_guard lock(mutex_);  // abort only marks the tasks: it never calls back here
  for (List* list : {&idle_, &notified_}) {
    for (JoinSetEntry* entry = list->head; entry; entry = entry->next_) entry->abort();
  }
}

void JoinSetList::detach_all() {
  //@ mutant capstone detach_all_drops_under_lock: lets each task go with the set's lock held, so a value that looks at the set as it is destroyed deadlocks
  JoinSetEntry* gone = nullptr;  // a chain of them, released after unlocking
  {
    std::lock_guard lock(mutex_);
    for (List* list : {&idle_, &notified_}) {
      while (JoinSetEntry* entry = list->head) {
        unlink(*entry);
        entry->next_ = gone;
        gone = entry;
      }
    }
  }
  // Dropping a JoinHandle may drop a task: never
  // under the lock.
  while (gone) {
    JoinSetEntry* next = gone->next_;
    gone->next_ = nullptr;
    JoinSetEntry::leave(gone);
    gone = next;
  }
  //@ instead
  std::lock_guard lock(mutex_);
  for (List* list : {&idle_, &notified_}) {
    while (JoinSetEntry* entry = list->head) {
      unlink(*entry);
      JoinSetEntry::leave(entry);
    }
  }
  //@ end
}

std::size_t JoinSetList::len() const {
  std::lock_guard lock(mutex_);
  return len_;
}

}  // namespace rt::detail
