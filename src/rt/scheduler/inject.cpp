//@ file threads..
// The injection queue's operations, compiled once per runtime; see
// inject.hpp.
#include "rt/loom.hpp"
#include "rt/scheduler/inject.hpp"

#include <utility>

namespace rt::detail {

std::unique_lock<loom::mutex> Inject::lock() const {
  std::unique_lock guard(mutex_, std::try_to_lock);
  if (!guard.owns_lock()) {
    lock_waits_.fetch_add(1, std::memory_order_relaxed);  // a statistic: no ordering
    guard.lock();
  }
  return guard;
}

//@ listing inject
bool Inject::push(Header* task) {
  //@ exercise threads inject
  //@ mutant threads inject_push_reads_closed_unlocked: reads closed_ before taking the lock, so a push racing close() links its task after close() emptied the queue, and nobody ever runs or frees it
  auto guard = lock();
  if (closed_) return false;
  //@ instead
  if (closed_) return false;
  auto guard = lock();
  //@ end
  //@ mutant threads inject_push_at_head: links a new task in at the head, so the global queue runs the newest task first
  task->queue_next = nullptr;
  if (tail_) tail_->queue_next = task;
  else head_ = task;
  tail_ = task;
  //@ instead
  task->queue_next = head_;
  head_ = task;
  if (!tail_) tail_ = task;
  //@ end
  // seq_cst, and after the task is linked: a worker that reads the new
  // length and comes back for the task finds it.
  //@ mutant threads inject_len_relaxed: counts the task with a relaxed add (it is under the lock), so a worker that lists itself asleep and looks again can read the old length while the pusher reads no sleeper: nobody runs the task
  len_.fetch_add(1, std::memory_order_seq_cst);
  //@ instead
  len_.fetch_add(1, std::memory_order_relaxed);
  //@ end
  return true;
  //@ starter
  // TODO: append `task` at the tail, under the lock (lock()), unless the
  // queue is closed: then return false and queue nothing. The link is the
  // task's own queue_next. Keep len_ equal to the number of tasks queued.
  // Hint: len_ is read without the lock by workers deciding whether to
  // sleep: update it with the task already linked, and with seq_cst.
  (void)task;
  throw Todo("@NN@ inject push (@FILE@)");
  //@ end
}

Header* Inject::pop() {
  //@ exercise threads inject
  if (is_empty()) return nullptr;  // the common idle case, without the lock
  auto guard = lock();
  Header* task = head_;
  if (!task) return nullptr;
  head_ = task->queue_next;
  //@ mutant threads inject_pop_keeps_tail: leaves tail_ on the task it hands out when the queue empties
  if (!head_) tail_ = nullptr;
  //@ instead
  //@ end
  task->queue_next = nullptr;
  //@ mutant threads inject_pop_counts_unlocked: updates the length after letting go of the lock, with a load and a store, so a push counted in between is lost
  len_.fetch_sub(1, std::memory_order_seq_cst);
  //@ instead
  guard.unlock();
  len_.store(len_.load() - 1);
  //@ end
  return task;
  //@ starter
  // TODO: unlink and return the task at the head, under the lock, or
  // nullptr when there is none. Keep len_ in step, and tail_ too: what
  // must tail_ be once the last task is taken?
  // Hint: len_ also lets an idle worker skip the lock when the queue is
  // empty.
  throw Todo("@NN@ inject pop (@FILE@)");
  //@ end
}
//@ listing-end inject

Header* Inject::take_all(Header*& last) {
  if (is_empty()) return nullptr;  // as in pop
  auto guard = lock();
  last = std::exchange(tail_, nullptr);
  len_.store(0, std::memory_order_seq_cst);  // seq_cst, as in pop
  return std::exchange(head_, nullptr);
}

//@ chapters local-queues..
void Inject::push_batch(Header* first, Header* last, std::size_t count) {
  last->queue_next = nullptr;
  {
    auto guard = lock();
    if (!closed_) {
      if (tail_) tail_->queue_next = first;
      else head_ = first;
      tail_ = last;
      len_.fetch_add(count, std::memory_order_seq_cst);  // as in push
      return;
    }
  }
  while (first) {  // shut down: outside the lock, as freeing may take others
    Header* next = first->queue_next;
    drop_reference(first);
    first = next;
  }
}

Header* Inject::pop_n(std::size_t count) {
  if (is_empty() || count == 0) return nullptr;
  auto guard = lock();
  Header* first = head_;
  if (!first) return nullptr;
  Header* last = first;
  std::size_t taken = 1;
  while (taken < count && last->queue_next) {
    last = last->queue_next;
    ++taken;
  }
  head_ = last->queue_next;
  if (!head_) tail_ = nullptr;
  last->queue_next = nullptr;
  len_.fetch_sub(taken, std::memory_order_seq_cst);  // as in pop
  return first;
}

//@ end
Header* Inject::close() {
  auto guard = lock();
  closed_ = true;
  tail_ = nullptr;
  len_.store(0, std::memory_order_seq_cst);
  return std::exchange(head_, nullptr);
}

bool Inject::is_closed() const {
  auto guard = lock();
  return closed_;
}

}  // namespace rt::detail
