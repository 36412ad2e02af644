// JoinError: why awaiting a JoinHandle gave no value. Mirrors
// tokio::task::JoinError.
//
// A task that throws does not take the runtime down: its exception is kept
// and handed, wrapped in a JoinError, to whoever joins the task.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>

namespace rt {

class JoinError : public std::runtime_error {
 public:
  // The task threw `exception`.
  static JoinError failed(std::exception_ptr exception) {
    return JoinError("task failed: " + describe(exception), exception);
  }
  //@ chapters wakers..
  // The task was aborted, or dropped when its runtime shut down.
  static JoinError cancelled() { return JoinError("task was cancelled", nullptr); }

  bool is_cancelled() const { return original_ == nullptr; }
  //@ end
  // Tokio's name: the task "panicked".
  bool is_panic() const { return original_ != nullptr; }
  // The exception the task threw.
  std::exception_ptr original() const { return original_; }

 private:
  JoinError(const std::string& message, std::exception_ptr original)
      : std::runtime_error(message), original_(original) {}

  static std::string describe(std::exception_ptr exception) {
    try {
      std::rethrow_exception(exception);
    } catch (const std::exception& e) {
      return e.what();
    } catch (...) {
      return "an exception that is not a std::exception";
    }
  }

  std::exception_ptr original_;
};

}  // namespace rt
