bool ConsumeBudget::poll(Context& cx) {
  std::optional<detail::RestoreOnPending> restore = detail::poll_proceed(cx);
  if (!restore) return false;
  restore->made_progress();
  return true;
}
