std::optional<RestoreOnPending> poll_proceed(Context& cx) {
  // TODO: spend one unit of this thread's budget for a resource that is
  // about to be polled, and return a RestoreOnPending holding the budget
  // as it was before (so that it can be given back).
  //  - no budget applies outside tasks (budget is nullopt) and inside
  //    unconstrained(...) (unconstrained_here()): return a RestoreOnPending
  //    that restores nothing (std::nullopt);
  //  - with no unit left, return nothing: the resource then reports "not
  //    ready" even if it is ready. Who will poll this task again, then?
  // Hint: 128 operations must go through, and the 129th must not.
  (void)cx;
  throw Todo("08 proceed (rt/task/coop.cpp)");
}

RestoreOnPending::~RestoreOnPending() {
  if (!made_progress_ && before_) budget = before_;
}
