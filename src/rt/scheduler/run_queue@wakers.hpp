//@ file wakers..sync
// RunQueue: the tasks that are ready to be polled, first in, first out.
//
// A linked list behind a mutex, so that a waker on any thread can push
// while the runtime's thread pops. Like Tokio's injection queue it is
// intrusive: the link is in each task's header (queue_next), so queueing a
// task allocates nothing. Each entry is a Notified: it holds one reference
// to its task. Chapter 05 adds a lock-free ring per worker.
#pragma once

#include <mutex>
#include <utility>

#include "rt/loom.hpp"
#include "rt/task/header.hpp"

namespace rt::detail {

class RunQueue {
 public:
  // Appends a Notified; false (and nothing queued) once the queue is closed.
  bool push(Header* task);

  // The oldest Notified, or nullptr when the queue is empty.
  Header* pop();

  // At shutdown: refuses every later push, and hands over what is queued,
  // as a chain linked through queue_next.
  Header* close();

 private:
  loom::mutex mutex_;
  Header* head_ = nullptr;
  Header* tail_ = nullptr;
  bool closed_ = false;
};

}  // namespace rt::detail
