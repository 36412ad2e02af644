//@ file threads
// The loop each worker runs. Mirrors run in Tokio's
// runtime/scheduler/multi_thread/worker.rs, as it would be with the
// injection queue alone: the local queues, the LIFO slot and stealing come
// in chapters 05 to 07.
//
// Each worker loops: take the next task from the queue and poll it; with
// none, park until a task arrives (park_worker.cpp). Whoever queues a task
// wakes one parked worker, if any is parked (schedule.cpp; idle.hpp says
// why no wake-up is lost).
#include "rt/scheduler/multi_thread/worker.hpp"

#include <pthread.h>

#include "rt/runtime/context.hpp"
#include "rt/task/harness.hpp"

namespace rt::detail {

void MultiThread::start() {
  threads_.reserve(workers_.size());
  for (std::size_t index = 0; index < workers_.size(); ++index) {
    threads_.emplace_back([self = shared_from_this(), index] {
      // Linux keeps 15 characters of a thread's name.
      pthread_setname_np(pthread_self(), self->config_.thread_name.substr(0, 15).c_str());
      self->run(index);
    });
  }
  // A runtime that build() returns has all its workers: none starts
  // later, in the middle of what the caller measures or expects.
  started_.wait();
}

//@ listing run
void MultiThread::run(std::size_t index) {
  // This thread spawns onto this runtime, and may not block_on.
  SetCurrentGuard current(shared_from_this());
  EnterRuntimeGuard entered;
  started_.count_down();
  for (;;) {
    if (Header* task = inject_.pop()) {
      poll(task);  // the Notified's reference goes with it
      continue;
    }
    if (inject_.is_closed()) return;  // shut down
    park(index);
  }
}
//@ listing-end run

}  // namespace rt::detail
