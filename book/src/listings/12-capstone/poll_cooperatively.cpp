bool poll_cooperatively(rt::detail::LeafBase& leaf, Context& cx) {
  std::optional<RestoreOnPending> restore = poll_proceed(cx);
  if (!restore) return false;  // the budget is gone: yield
  bool ready = leaf.poll(cx);
  if (ready) restore->made_progress();
  return ready;
}
