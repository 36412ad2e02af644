// OwnedTasks: every task a runtime has spawned and not yet finished, in
// shards. Mirrors Tokio's OwnedTasks (runtime/task/list.rs) over its
// ShardedList (util/sharded_list.rs).
//
// Every spawn binds a task and every completion removes one, on whichever
// thread does it: with one mutex, a thread that spawns from outside and the
// workers that finish the tasks queue up behind each other on it (measured
// on spawn_many_remote_busy: about one futex call per task). So the list is
// split into shards, each an intrusive list with its own mutex, and a task
// always goes to the same one, chosen from its address. Tokio chooses by
// task id and sizes the list at 4 shards per worker; 16 covers the machines
// the course is measured on.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "rt/loom.hpp"
#include "rt/task/header.hpp"

namespace rt::detail {

class OwnedTasks {
 public:
  // Adds a new task, with its reference; false once the runtime has shut down.
  bool bind(Header* task);

  // Unlinks a completed task; true when it was still here, which hands
  // the list's reference to the caller.
  bool remove(Header& task);

  // Refuses new tasks from now on.
  void close();
  bool is_closed() const;

  // Unlinks some task and hands it over with the list's reference, or
  // nullptr when the list is empty: for shutdown, after close().
  Header* pop();

 private:
  static constexpr int kShardBits = 4;
  static constexpr std::size_t kShards = std::size_t{1} << kShardBits;

  // One list and its lock, on a cache line of its own, so that two threads
  // working on two shards do not contend for the line either.
  struct alignas(64) Shard {
    loom::mutex mutex;
    Header* head = nullptr;
  };

  Shard& shard_of(const Header& task);
  static void unlink(Shard& shard, Header& task);

  std::array<Shard, kShards> shards_;
  // Read by bind under a shard's lock: a bind that takes the lock after
  // close() has swept that shard sees it set (see close()).
  loom::atomic<bool> closed_{false};
};

}  // namespace rt::detail
