//@ file coop..
// The budget's operations, compiled once per runtime; see coop.hpp. A
// resource reaches them through one call, poll_cooperatively, into which
// the compiler folds its steps (poll_proceed, RestoreOnPending): a ready
// resource pays a few instructions for its unit, as in Tokio.
#include "rt/task/coop.hpp"

#include "rt/task/restore_on_pending.hpp"
#include "rt/todo.hpp"
//@ chapters capstone..
#include "rt/runtime/metrics/instruments.hpp"
//@ end

namespace rt::coop {
namespace detail {

// Whether the poll in progress is inside rt::coop::unconstrained(...).
static bool unconstrained_here() {
  const rt::detail::CurrentPoll& poll = rt::detail::current_poll;
  return poll.poller && poll.poller->is_unconstrained();
}

//@ listing poll_proceed
// A resource is about to be polled: spend one unit. Nothing (and the task
// is woken, to be polled again after the others) when the budget is gone:
// the resource must then report "not ready". (Inline: poll_cooperatively's
// hot half. In the starter, nothing calls it yet: maybe unused.)
[[maybe_unused]] inline std::optional<RestoreOnPending> poll_proceed(Context& cx) {
  //@ exercise coop proceed
  //@ mutant coop proceed_unconstrained_spends: spends units inside unconstrained(...) as anywhere else
  if (!budget || unconstrained_here()) return RestoreOnPending(std::nullopt);  // no budget applies
  //@ instead
  if (!budget) return RestoreOnPending(std::nullopt);
  //@ end
  //@ mutant coop proceed_one_early: yields after 127 operations, not 128
  if (*budget == 0) {
  //@ instead
  if (*budget <= 1) {
  //@ end
    // Spent: run again later, after the others. The wake comes during
    // the task's own poll, so the scheduler requeues it as a yield.
    //@ mutant coop proceed_forgets_wake: reports "not ready" without waking the task
    cx.waker().wake_by_ref();
    //@ instead
    //@ end
//@ chapters capstone..
    rt::detail::count_forced_yield();  // a statistic
//@ end
    //@ mutant coop proceed_refills: refills the budget as it refuses, so the slot's task runs at once
    //@ instead
    *budget = initial_budget;
    //@ end
    //@ mutant coop proceed_clears: drops the budget as it refuses, so the rest of the poll runs unconstrained
    //@ instead
    budget.reset();
    //@ end
    return std::nullopt;
  }
  std::optional<std::uint8_t> before = budget;
  *budget -= 1;
  return RestoreOnPending(before);
  //@ starter
  // TODO: spend one unit of this thread's budget for a resource that is
  // about to be polled. The result says whether the resource may be
  // polled, and what to give back if it turns out to be pending:
  //  - go ahead, spending nothing: outside tasks (budget is nullopt) and
  //    inside unconstrained(...) (unconstrained_here()). Return a
  //    RestoreOnPending built from an empty budget
  //    (std::optional<std::uint8_t>{}): it restores nothing;
  //  - go ahead, spending a unit: return a RestoreOnPending holding the
  //    budget as it was before, so that it can be given back;
  //  - refuse, with no unit left: return an empty
  //    std::optional<RestoreOnPending>; the resource then reports "not
  //    ready" even if it is ready. Who will poll this task again, then?
  // Careful: a bare `return std::nullopt;` compiles here and means
  // "refuse", not "go ahead and restore nothing".
  // Hint: 128 operations must go through, and the 129th must not.
  (void)cx;
  throw Todo("@NN@ proceed (@FILE@)");
  //@ end
}

RestoreOnPending::~RestoreOnPending() {
  //@ mutant coop restore_never: keeps the unit spent on an operation that ended up pending
  if (!made_progress_ && restores_) budget = before_;
  //@ instead
  //@ end
}
//@ listing-end poll_proceed

//@ listing poll_cooperatively
bool poll_cooperatively(rt::detail::LeafBase& leaf, Context& cx) {
  //@ exercise coop cooperative
  std::optional<RestoreOnPending> restore = poll_proceed(cx);
  if (!restore) return false;  // the budget is gone: yield
  bool ready = leaf.poll(cx);
  //@ mutant coop cooperative_keeps_every_unit: keeps the unit even when the resource was not ready
  if (ready) restore->made_progress();
  //@ instead
  restore->made_progress();
  //@ end
  return ready;
  //@ starter
  // TODO: poll the runtime resource `leaf` (leaf.poll(cx)) through the
  // budget, and return whether it is ready:
  //  - first spend a unit (poll_proceed); with none left, report "not
  //    ready" without polling it at all;
  //  - the unit is kept only if the resource was ready: the
  //    RestoreOnPending gives it back when it goes away, unless told that
  //    progress was made (made_progress()).
  // Hint: a task that waits on an empty channel has done no work: should
  // that wait cost it a unit?
  (void)leaf;
  (void)cx;
  throw Todo("@NN@ cooperative (@FILE@)");
  //@ end
}
//@ listing-end poll_cooperatively

}  // namespace detail

bool has_budget_remaining() {
  return !detail::budget || *detail::budget > 0 || detail::unconstrained_here();
}

//@ listing consume_budget
bool ConsumeBudget::poll(Context& cx) {
  //@ exercise coop consume_budget
  std::optional<detail::RestoreOnPending> restore = detail::poll_proceed(cx);
  if (!restore) return false;
  //@ mutant coop consume_budget_refunds: spends the unit, then gives it back
  //@ instead
  return true;
  //@ end
  restore->made_progress();
  return true;
  //@ starter
  // TODO: spend one unit, as a resource that is always ready would: ready
  // while the budget lasts, "not ready" (and the task yields) once it is
  // gone.
  // Hint: poll_proceed gives the unit back unless you say otherwise.
  (void)cx;
  throw Todo("@NN@ consume_budget (@FILE@)");
  //@ end
}
//@ listing-end consume_budget

}  // namespace rt::coop
