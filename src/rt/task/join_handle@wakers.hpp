// JoinHandle<T>: awaiting it gives the task's value, or throws a JoinError.
// Mirrors tokio::task::JoinHandle.
//
// A JoinHandle is a leaf future: its poll is ready once the task is
// complete, and otherwise leaves the joiner's waker with the task.
// Destroying the handle detaches the task: it runs on, and its output is
// dropped.
//
// The handle holds one of the task's references, and the JOIN_INTEREST bit
// of its state word says that it exists; abort() cancels the task.
#pragma once

#include <utility>

#include "rt/task/cell.hpp"
#include "rt/task/harness.hpp"
#include "rt/task/poll.hpp"

namespace rt {

//@ listing join_handle
template <class T>
class [[nodiscard]] JoinHandle : public Leaf<JoinHandle<T>> {
 public:
  explicit JoinHandle(detail::Cell<T>* cell) : cell_(cell) {}
  JoinHandle(JoinHandle&& other) noexcept : cell_(std::exchange(other.cell_, nullptr)) {}
  JoinHandle& operator=(JoinHandle&& other) noexcept {
    JoinHandle old(std::move(*this));  // drops our task, if any, on the way out
    cell_ = std::exchange(other.cell_, nullptr);
    return *this;
  }
  ~JoinHandle() {
    if (cell_) detail::drop_join_handle(cell_);
  }

  bool poll(Context& cx) override { return detail::poll_join(cell_, cx.waker()); }
//@ chapters coop..
  bool cooperative() const override { return true; }  // spends the task's budget
//@ end
  // The value, or a JoinError: the task threw, or was cancelled.
  T await_resume() { return cell_->take_output(); }

  bool is_finished() const { return cell_->state.load().is_complete(); }

//@ chapters threads..
  // Cancels the task: a waiting one is handed to its scheduler, which
  // cancels it where it runs tasks; a running one when its poll ends; a
  // finished one not at all. Awaiting the handle then throws a JoinError
  // whose is_cancelled() is true.
  void abort() const { detail::remote_abort(cell_); }
//@ else
  // Cancels the task: at once if it is waiting, when its poll ends if it
  // is running, not at all if it has finished. Awaiting the handle then
  // throws a JoinError whose is_cancelled() is true.
  void abort() const { detail::abort_task(cell_); }
//@ end

 private:
  detail::Cell<T>* cell_;
};
//@ listing-end join_handle

}  // namespace rt
