// The sharded owned-tasks list's operations, compiled once per runtime; see
// owned_tasks.hpp.
#include "rt/scheduler/owned_tasks.hpp"

namespace rt::detail {

//@ listing owned_tasks_shards
OwnedTasks::Shard& OwnedTasks::shard_of(const Header& task) {
  // Fibonacci hashing: tasks of one size sit at addresses a fixed stride
  // apart, and the multiplication spreads such a stride over every shard,
  // where the low bits of the address alone might pick one or two.
  auto address = reinterpret_cast<std::uintptr_t>(&task);
  std::uint64_t hash = static_cast<std::uint64_t>(address) * 0x9E3779B97F4A7C15ull;
  return shards_[hash >> (64 - kShardBits)];  // the top bits, the best mixed
}

bool OwnedTasks::bind(Header* task) {
  Shard& shard = shard_of(*task);
  std::lock_guard lock(shard.mutex);
  // Relaxed: the shard's lock orders this read after close()'s sweep of
  // the shard, if the sweep came first; if not, the sweep will find the task.
  if (closed_.load(std::memory_order_relaxed)) return false;
  task->owned_prev = nullptr;
  task->owned_next = shard.head;
  if (shard.head) shard.head->owned_prev = task;
  shard.head = task;
//@ chapters capstone..
  shard.added.add();
//@ end
  return true;
}

bool OwnedTasks::remove(Header& task) {
  Shard& shard = shard_of(task);
  std::lock_guard lock(shard.mutex);
  if (shard.head != &task && task.owned_prev == nullptr) return false;  // not linked
  unlink(shard, task);
  return true;
}
//@ listing-end owned_tasks_shards

void OwnedTasks::close() {
  closed_.store(true, std::memory_order_release);  // pairs with is_closed()
  // Take and drop every shard's lock once: a bind that held one when the
  // flag was set has linked its task by now, and a later one sees the flag.
  for (Shard& shard : shards_) std::lock_guard lock(shard.mutex);
}

bool OwnedTasks::is_closed() const { return closed_.load(std::memory_order_acquire); }

Header* OwnedTasks::pop() {
  for (Shard& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    if (Header* task = shard.head) {
      unlink(shard, *task);
      return task;
    }
  }
  return nullptr;
}

void OwnedTasks::unlink(Shard& shard, Header& task) {
  if (task.owned_prev) task.owned_prev->owned_next = task.owned_next;
  else shard.head = task.owned_next;
  if (task.owned_next) task.owned_next->owned_prev = task.owned_prev;
  task.owned_prev = task.owned_next = nullptr;
//@ chapters capstone..
  shard.removed.add();
//@ end
}

}  // namespace rt::detail
