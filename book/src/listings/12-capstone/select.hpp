template <class A, class B>
class [[nodiscard]] Select : public Leaf<Select<A, B>> {
 public:
  Select(A& a, B& b) : a_(a), b_(b) {}

  bool poll(Context& cx) override {
    // The leaves' own poll, not through the budget: the select as a whole
    // spends it once.
    if (a_.poll(cx)) {
      ready_ = 0;
      return true;
    }
    if (b_.poll(cx)) {
      ready_ = 1;
      return true;
    }
    return false;
  }
  bool cooperative() const override { return a_.cooperative() || b_.cooperative(); }
  // Which leaf is ready: 0 for the first, 1 for the second.
  std::size_t await_resume() const noexcept { return ready_; }

 private:
  A& a_;
  B& b_;
  std::size_t ready_ = 0;
};

template <class A, class B>
Select<A, B> select(A& a, B& b) {
  return Select<A, B>(a, b);
}
