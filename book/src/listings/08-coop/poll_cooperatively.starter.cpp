bool poll_cooperatively(rt::detail::LeafBase& leaf, Context& cx) {
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
  throw Todo("2 of chapter 08 (cooperative, in rt/task/coop.cpp)");
}
