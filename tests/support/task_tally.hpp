// TaskTally: for a model test of the run queues, which of a FakeTasks'
// tasks came out of them, and how often. Each thread keeps the tasks it
// took in a list of its own; once every thread is joined, the lists are
// added up and each task must have come out exactly once: never lost,
// never taken twice, never a pointer that was not pushed.
#pragma once

#include <cstddef>
#include <vector>

#include "fake_tasks.hpp"
#include "model/model.hpp"

class TaskTally {
 public:
  explicit TaskTally(const FakeTasks& tasks) : tasks_(tasks), counts_(tasks.size() + 1, 0) {}

  void add(const rt::detail::Header* task) { ++counts_[tasks_.id(task)]; }
  void add(const std::vector<rt::detail::Header*>& taken) {
    for (const rt::detail::Header* task : taken) add(task);
  }
  // Every task still in `queue` (a ring, the global queue), popped.
  template <class Queue>
  void drain(Queue& queue) {
    while (rt::detail::Header* task = queue.pop()) add(task);
  }

  // The property: each task came out once.
  void check_each_once() const {
    model::check(counts_[tasks_.size()] == 0, "a queue handed out a pointer that was never pushed");
    for (std::size_t i = 0; i < tasks_.size(); ++i) {
      model::check(counts_[i] != 0, "a task pushed was lost: it was never popped or stolen and is in no queue");
      model::check(counts_[i] < 2, "a task was taken twice (popped or stolen by two threads, or twice by one)");
    }
  }

 private:
  const FakeTasks& tasks_;
  std::vector<std::size_t> counts_;  // by task number; the last: not one of them
};
