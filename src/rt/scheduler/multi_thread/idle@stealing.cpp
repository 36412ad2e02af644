//@ file stealing..
// The idle and searching workers' bookkeeping, compiled once per runtime;
// see idle.hpp.
#include "rt/scheduler/multi_thread/idle.hpp"

#include <algorithm>

namespace rt::detail {

Idle::Idle(std::size_t workers)
    : num_workers_(workers), state_(static_cast<std::uint32_t>(workers) << unpark_shift) {
  sleepers_.reserve(workers);
}

//@ listing searching
bool Idle::transition_worker_to_searching() {
  //@ exercise stealing searching
  // seq_cst, as every access to the word: see the protocol in idle.hpp.
  std::uint32_t state = state_.load(std::memory_order_seq_cst);
  // At most about half: two workers may both pass this test before either
  // adds itself, as in Tokio; an approximate limit is enough.
  //@ mutant stealing searching_unlimited: lets every worker search
  if (2 * (state & searching_mask) >= num_workers_) return false;
  //@ instead
  //@ end
  //@ mutant stealing to_searching_by_store: counts itself in by storing one more than it read, undoing a searcher that left meanwhile
  state_.fetch_add(1, std::memory_order_seq_cst);
  //@ instead
  state_.store(state + 1, std::memory_order_seq_cst);
  //@ end
  return true;
  //@ starter
  // TODO: let this worker search if fewer than half the workers search:
  // 2 * searching < workers. Then count it (state_ holds num_searching in
  // its low 16 bits) and return true; else return false.
  // Hint: why limit the searchers at all? Think of 64 idle workers all
  // trying to steal from the one busy ring.
  throw Todo("@NN@ searching (@FILE@)");
  //@ end
}

bool Idle::transition_worker_from_searching() {
  //@ exercise stealing searching
  //@ mutant stealing from_searching_never_last: never reports the last searcher
  //@ mutant stealing from_searching_keeps_count: reads the count to tell whether it was the last, but never counts itself out
  //@ mutant stealing from_searching_load_then_store: reads the count, then stores one less: two searchers leaving at once both count from the same number
  std::uint32_t previous = state_.fetch_sub(1, std::memory_order_seq_cst);
  //@ instead
  std::uint32_t previous = state_.load(std::memory_order_seq_cst);
  state_.store(previous - 1, std::memory_order_seq_cst);
  //@ end
  //@ instead
  std::uint32_t previous = state_.load(std::memory_order_seq_cst);
  //@ end
  return (previous & searching_mask) == 1;
  //@ instead
  state_.fetch_sub(1, std::memory_order_seq_cst);
  return false;
  //@ end
  //@ starter
  // TODO: this searcher found work: count it out of the searchers, and
  // return true if it was the last one.
  // Hint: read the count and change it in one operation; a load then a
  // store would let two searchers both think they were last, or neither.
  throw Todo("@NN@ searching (@FILE@)");
  //@ end
}
//@ listing-end searching

bool Idle::transition_worker_to_parked(std::size_t worker, bool is_searching) {
  if (auto hook = before_worker_parks.load(std::memory_order_acquire)) hook(worker);
  std::lock_guard lock(mutex_);
  // One fewer unparked, and one fewer searching if it searched: one
  // operation, so that no reader sees it counted in one and not the other.
  std::uint32_t change = one_unparked + (is_searching ? 1u : 0u);
  std::uint32_t previous = state_.fetch_sub(change, std::memory_order_seq_cst);
  sleepers_.push_back(worker);
  return is_searching && (previous & searching_mask) == 1;
}

bool Idle::unpark_worker_by_id(std::size_t worker) {
  std::lock_guard lock(mutex_);
  auto it = std::find(sleepers_.begin(), sleepers_.end(), worker);
  if (it == sleepers_.end()) return false;
  sleepers_.erase(it);
  state_.fetch_add(one_unparked, std::memory_order_seq_cst);  // awake, not searching
  return true;
}

bool Idle::notify_should_wakeup() {
  // A read-modify-write, not a load: the task was published by a release
  // store (a ring's tail), and only an RMW of this word orders it with the
  // searchers' own RMWs (see the protocol in idle.hpp).
  std::uint32_t state = state_.fetch_add(0, std::memory_order_seq_cst);
  return (state & searching_mask) == 0 && (state >> unpark_shift) < num_workers_;
}

std::optional<std::size_t> Idle::worker_to_notify() {
  // Without the lock first: a busy runtime, or one with a searcher, skips it.
  if (!notify_should_wakeup()) return std::nullopt;
  std::lock_guard lock(mutex_);
  // Again under the lock: another notifier may have woken the one needed.
  if (!notify_should_wakeup() || sleepers_.empty()) return std::nullopt;
  std::size_t worker = sleepers_.back();
  sleepers_.pop_back();
  // Awake, and searching: it is woken to find the new task.
  state_.fetch_add(one_unparked + 1, std::memory_order_seq_cst);
  return worker;
}

bool Idle::is_parked(std::size_t worker) {
  std::lock_guard lock(mutex_);
  return std::find(sleepers_.begin(), sleepers_.end(), worker) != sleepers_.end();
}

std::vector<std::size_t> Idle::take_all() {
  std::lock_guard lock(mutex_);
  std::vector<std::size_t> all = std::move(sleepers_);
  sleepers_.clear();
  return all;
}

std::size_t Idle::num_sleeping() const {
  return num_workers_ - (state_.load(std::memory_order_seq_cst) >> unpark_shift);
}

}  // namespace rt::detail
