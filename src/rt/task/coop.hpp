//@ file coop..
// Cooperative scheduling: a budget of 128 units for each poll of a task.
// Mirrors Tokio's task/coop (mod.rs, consume_budget.rs, unconstrained.rs).
//
// A task whose resources are always ready (a channel that is never empty,
// a mutex nobody else holds) never suspends, so it would keep its worker to
// itself. So every runtime resource spends one unit of the task's budget
// each time it is ready; once the budget is gone it says "not ready" even
// though it is, and wakes the task, which goes to the back of the queue:
// the others get a turn, and the task continues where it was.
//
// The budget lives in a thread-local: the scheduler sets it for each task
// poll (multi-thread: for the task and the LIFO polls after it, together),
// and for each poll of block_on's future. Outside them it is unconstrained.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "rt/task/context.hpp"
#include "rt/task/poll.hpp"
#include "rt/task/task.hpp"

namespace rt::coop {

namespace detail {

inline constexpr std::uint8_t initial_budget = 128;

// Units left for the poll in progress on this thread; nullopt when
// unconstrained (outside any task, or inside rt::coop::unconstrained).
inline thread_local std::optional<std::uint8_t> budget;

// Gives a poll a fresh budget, and restores the one before when it ends.
class BudgetGuard {
 public:
  BudgetGuard() : previous_(std::exchange(budget, initial_budget)) {}
  ~BudgetGuard() { budget = previous_; }
  BudgetGuard(const BudgetGuard&) = delete;
  BudgetGuard& operator=(const BudgetGuard&) = delete;

 private:
  std::optional<std::uint8_t> previous_;
};

// Runs `poll` (a task's poll, or block_on's poll of its future) with a
// fresh budget.
template <class Poll>
decltype(auto) with_budget(Poll&& poll) {
  BudgetGuard guard;
  return poll();
}

// The scope of rt::coop::unconstrained(...) in its task's chain.
class UnconstrainedScope {
 public:
  UnconstrainedScope() : poller_(rt::detail::this_poll().poller) { poller_->enter_unconstrained(); }
  ~UnconstrainedScope() { poller_->leave_unconstrained(); }
  UnconstrainedScope(const UnconstrainedScope&) = delete;
  UnconstrainedScope& operator=(const UnconstrainedScope&) = delete;

 private:
  rt::detail::Poller* poller_;  // lives in the task's header, as long as the chain
};

}  // namespace detail

// Whether the current task has budget left (true outside any task).
bool has_budget_remaining();

// `co_await rt::coop::consume_budget()`: spends one unit, as a resource
// would, for a loop that does its own work without touching any: once the
// budget is gone, the task yields here.
class ConsumeBudget : public Leaf<ConsumeBudget> {
 public:
  bool poll(Context& cx) override;
  void await_resume() const noexcept {}
};

inline ConsumeBudget consume_budget() { return {}; }

// `co_await rt::coop::unconstrained(task)`: runs `task` with no budget: its
// resources never make it yield. Use with care: it can starve the others.
template <class T>
Task<T> unconstrained(Task<T> task) {
  detail::UnconstrainedScope scope;
  co_return co_await std::move(task);
}

}  // namespace rt::coop
