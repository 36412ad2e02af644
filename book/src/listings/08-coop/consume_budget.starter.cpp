bool ConsumeBudget::poll(Context& cx) {
  // TODO: spend one unit, as a resource that is always ready would: ready
  // while the budget lasts, "not ready" (and the task yields) once it is
  // gone.
  // Hint: poll_proceed gives the unit back unless you say otherwise.
  (void)cx;
  throw Todo("3 of chapter 08 (consume_budget, in rt/task/coop.cpp)");
}
