bool poll_leaf(LeafBase& leaf, Context& cx) {
  if (!leaf.cooperative()) return leaf.poll(cx);
  return coop::detail::poll_cooperatively(leaf, cx);
}
