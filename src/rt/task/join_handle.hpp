// JoinHandle<T>: awaiting it gives the task's value, or throws a JoinError.
// Mirrors tokio::task::JoinHandle.
//
// A JoinHandle is a leaf future: its poll is ready once the task is
// complete, and otherwise leaves the joiner's waker with the task.
// Destroying the handle detaches the task: it runs on, and its output is
// dropped.
#pragma once

#include <memory>
#include <utility>

#include "rt/task/cell.hpp"
#include "rt/task/poll.hpp"

namespace rt {

template <class T>
class [[nodiscard]] JoinHandle : public Leaf<JoinHandle<T>> {
 public:
  explicit JoinHandle(std::shared_ptr<detail::Cell<T>> cell) : cell_(std::move(cell)) {}
  JoinHandle(JoinHandle&&) noexcept = default;
  JoinHandle& operator=(JoinHandle&&) noexcept = default;

  bool poll(Context& cx) override { return cell_->poll_join(cx); }
  T await_resume() { return cell_->take_output(); }

  bool is_finished() const { return cell_->is_complete(); }

 private:
  std::shared_ptr<detail::Cell<T>> cell_;
};

}  // namespace rt
