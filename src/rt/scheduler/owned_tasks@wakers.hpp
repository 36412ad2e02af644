// OwnedTasks: every task a runtime has spawned and not yet finished. Mirrors
// Tokio's OwnedTasks (runtime/task/list.rs).
//
// A task waiting for a wake-up that never comes is referenced only by the
// waker somebody holds, or by nobody at all. The runtime still has to find
// it to destroy it at shutdown: this list is how.
//
// Like Tokio's, the list is intrusive: the links are in each task's header,
// so adding a task allocates nothing. The list holds one reference to each
// task in it.
#pragma once

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

  // Unlinks some task and hands it over with the list's reference, or
  // nullptr when the list is empty: for shutdown.
  Header* pop();

 private:
  void unlink(Header& task);

  loom::mutex mutex_;
  Header* head_ = nullptr;
  bool closed_ = false;
};

}  // namespace rt::detail
