// Base of every leaf awaitable: `co_await leaf` polls it once right away and,
// if it is not ready, suspends the whole chain on it. Derived classes
// implement `bool poll(Context&)` and `await_resume()`.
template <class Derived>
class Leaf : public detail::LeafBase {
 public:
  bool await_ready() { return detail::poll_leaf(*this, *detail::this_poll().cx); }
  void await_suspend(std::coroutine_handle<> at) { detail::this_poll().poller->suspend_on(*this, at); }
};
