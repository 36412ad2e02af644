//@ file capstone..
// What the owned-tasks list says of itself: tasks alive and tasks spawned
// (Tokio's num_alive_tasks and spawned_tasks_count), summed over the
// shards' counts without a lock; see owned_tasks.hpp.
#include <algorithm>

#include "rt/scheduler/owned_tasks.hpp"

namespace rt::detail {

std::size_t OwnedTasks::len() const {
  std::uint64_t alive = 0;
  for (const Shard& shard : shards_) {
    // Read while tasks come and go, the two counts can be from moments a
    // little apart: a shard never counts below zero.
    std::uint64_t removed = shard.removed.load();
    std::uint64_t added = shard.added.load();
    alive += added - std::min(added, removed);
  }
  return alive;
}

std::uint64_t OwnedTasks::spawned() const {
  std::uint64_t spawned = 0;
  for (const Shard& shard : shards_) spawned += shard.added.load();
  return spawned;
}

}  // namespace rt::detail
