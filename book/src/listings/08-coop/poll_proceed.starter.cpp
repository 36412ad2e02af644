// A resource is about to be polled: spend one unit. Nothing (and the task
// is woken, to be polled again after the others) when the budget is gone:
// the resource must then report "not ready". (Inline: poll_cooperatively's
// hot half. In the starter, nothing calls it yet: maybe unused.)
[[maybe_unused]] inline std::optional<RestoreOnPending> poll_proceed(Context& cx) {
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
  throw Todo("1 of chapter 08 (proceed, in rt/task/coop.cpp)");
}

RestoreOnPending::~RestoreOnPending() {
  if (!made_progress_ && restores_) budget = before_;
}
