//@ file threads..local-queues
// The idle workers' bookkeeping, compiled once per runtime; see idle.hpp.
#include "rt/scheduler/multi_thread/idle.hpp"

#include <algorithm>

namespace rt::detail {

void Idle::transition_worker_to_parked(std::size_t worker) {
  if (auto hook = before_worker_parks.load(std::memory_order_acquire)) hook(worker);
  std::lock_guard lock(mutex_);
  sleepers_.push_back(worker);
  // seq_cst: ordered before the worker's last look at the queue.
  num_sleeping_.fetch_add(1, std::memory_order_seq_cst);
}

bool Idle::unpark_worker_by_id(std::size_t worker) {
  std::lock_guard lock(mutex_);
  auto it = std::find(sleepers_.begin(), sleepers_.end(), worker);
  if (it == sleepers_.end()) return false;
  sleepers_.erase(it);
  num_sleeping_.fetch_sub(1, std::memory_order_seq_cst);
  return true;
}

//@ listing worker_to_notify
std::optional<std::size_t> Idle::worker_to_notify() {
  //@ exercise threads notify
  // seq_cst: ordered after the push of the task this wake-up is for.
  //@ mutant threads notify_reads_count_relaxed: reads the count of sleepers relaxed, so it can miss a worker that listed itself and looked at the queue before the push: that worker sleeps through the task
  //@ mutant threads notify_count_load_store: reads the count before taking the lock and stores it less one after, so a worker that lists itself in between is not counted, and the next task wakes nobody
  if (num_sleeping_.load(std::memory_order_seq_cst) == 0) return std::nullopt;  // all busy
  //@ instead
  std::size_t sleeping = num_sleeping_.load(std::memory_order_seq_cst);
  if (sleeping == 0) return std::nullopt;
  //@ end
  //@ instead
  if (num_sleeping_.load(std::memory_order_relaxed) == 0) return std::nullopt;
  //@ end
  std::lock_guard lock(mutex_);
  if (sleepers_.empty()) return std::nullopt;  // another notifier took the last one
  //@ mutant threads notify_keeps_sleeper_listed: wakes a sleeper but leaves it on the list
  std::size_t worker = sleepers_.back();
  sleepers_.pop_back();
  //@ mutant threads notify_count_stale: takes the sleeper off the list but not off the count, so the count says more workers sleep than the list holds
  //@ mutant threads notify_count_load_store: reads the count before taking the lock and stores it less one after, so a worker that lists itself in between is not counted, and the next task wakes nobody
  num_sleeping_.fetch_sub(1, std::memory_order_seq_cst);
  //@ instead
  num_sleeping_.store(sleeping - 1, std::memory_order_seq_cst);
  //@ end
  //@ instead
  //@ end
  return worker;
  //@ instead
  return sleepers_.back();
  //@ end
  //@ starter
  // TODO: a task was just queued: choose ONE sleeping worker to wake, take
  // it off sleepers_ (so that the next task wakes another one), and
  // return its index; return std::nullopt when no worker sleeps.
  // Invariant: num_sleeping_ == sleepers_.size(), and only the list under
  // mutex_ says who sleeps; num_sleeping_ lets busy runtimes skip the lock.
  // Hint: two notifiers can both read num_sleeping_ == 1; only one may get
  // the sleeper.
  throw Todo("@NN@ notify (@FILE@)");
  //@ end
}
//@ listing-end worker_to_notify

std::vector<std::size_t> Idle::take_all() {
  std::lock_guard lock(mutex_);
  std::vector<std::size_t> all = std::move(sleepers_);
  sleepers_.clear();
  num_sleeping_.store(0, std::memory_order_seq_cst);
  return all;
}

}  // namespace rt::detail
