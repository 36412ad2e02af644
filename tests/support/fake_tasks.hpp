// FakeTasks: task headers for testing a run queue by itself, without a
// runtime. Each is a real Header (the queues link them through
// queue_next), numbered by its place in the array; none is ever polled.
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

#include "rt/rt.hpp"

class FakeTasks {
 public:
  explicit FakeTasks(std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      headers_.emplace_back(nullptr, nullptr, rt::detail::Poller(body_.handle()));
    }
  }

  rt::detail::Header* operator[](std::size_t i) { return &headers_[i]; }
  // The number of `task`, which must be one of these.
  std::size_t id(const rt::detail::Header* task) const {
    for (std::size_t i = 0; i < headers_.size(); ++i) {
      if (&headers_[i] == task) return i;
    }
    return headers_.size();
  }
  std::size_t size() const { return headers_.size(); }

  // The numbers of the tasks popped from `queue` (a ring, the global
  // queue) until it is empty, in the order they came out.
  template <class Queue>
  std::vector<std::size_t> drain(Queue& queue) const {
    std::vector<std::size_t> ids;
    while (rt::detail::Header* task = queue.pop()) ids.push_back(id(task));
    return ids;
  }

 private:
  static rt::Task<> nothing() { co_return; }

  rt::Task<> body_ = nothing();  // never run: its frame is only a poller's root
  std::deque<rt::detail::Header> headers_;  // a deque never moves what it holds
};
