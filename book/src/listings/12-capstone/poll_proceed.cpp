// A resource is about to be polled: spend one unit. Nothing (and the task
// is woken, to be polled again after the others) when the budget is gone:
// the resource must then report "not ready". (Inline: poll_cooperatively's
// hot half. In the starter, nothing calls it yet: maybe unused.)
[[maybe_unused]] inline std::optional<RestoreOnPending> poll_proceed(Context& cx) {
  if (!budget || unconstrained_here()) return RestoreOnPending(std::nullopt);  // no budget applies
  if (*budget == 0) {
    // Spent: run again later, after the others. The wake comes during
    // the task's own poll, so the scheduler requeues it as a yield.
    cx.waker().wake_by_ref();
    rt::detail::count_forced_yield();  // a statistic
    return std::nullopt;
  }
  std::optional<std::uint8_t> before = budget;
  *budget -= 1;
  return RestoreOnPending(before);
}

RestoreOnPending::~RestoreOnPending() {
  if (!made_progress_ && restores_) budget = before_;
}
