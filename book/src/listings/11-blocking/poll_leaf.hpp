// Polls `leaf`, through the task's budget if it is a runtime resource.
// Every await of a leaf passes here: inline, so that a leaf that is not a
// resource pays nothing for the budget.
inline bool poll_leaf(LeafBase& leaf, Context& cx) {
  if (!leaf.cooperative()) return leaf.poll(cx);
  return coop::detail::poll_cooperatively(leaf, cx);
}
