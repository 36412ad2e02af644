// Output<T>: what a finished task leaves for its JoinHandle: a value or the
// exception it threw. Tokio keeps the same thing in the task's Stage.
#pragma once

#include <exception>
#include <optional>
#include <utility>

#include "rt/task/join_error.hpp"
#include "rt/task/task.hpp"

namespace rt::detail {

template <class T>
class Output {
 public:
  // Moves the result out of a finished coroutine.
  void store_from(Task<T>& finished) {
    try {
      value_.emplace(finished.take_result());
    } catch (...) {
      exception_ = std::current_exception();
    }
  }
  T take() {
    if (exception_) throw JoinError::failed(exception_);
    return std::move(*value_);
  }

 private:
  std::optional<T> value_;
  std::exception_ptr exception_;
};

template <>
class Output<void> {
 public:
  void store_from(Task<void>& finished) {
    try {
      finished.take_result();
    } catch (...) {
      exception_ = std::current_exception();
    }
  }
  void take() {
    if (exception_) throw JoinError::failed(exception_);
  }

 private:
  std::exception_ptr exception_;
};

}  // namespace rt::detail
