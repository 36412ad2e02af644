// Chapter 01: what a task may await, and what a leaf that throws does.
#include <coroutine>
#include <stdexcept>
#include <string>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

// Pending on its first poll (after asking to be polled again), then throws.
class ThrowsWhenPolledAgain : public rt::Leaf<ThrowsWhenPolledAgain> {
 public:
  bool poll(rt::Context& cx) override {
    if (polls_++ == 0) {
      cx.waker().wake_by_ref();
      return false;
    }
    throw std::runtime_error("the leaf failed on its second poll");
  }
  void await_resume() const noexcept {}

 private:
  int polls_ = 0;
};

rt::Task<int> fails_after_a_suspension() {
  co_await ThrowsWhenPolledAgain{};
  co_return 1;
}

rt::Task<int> plus_one(int value) { co_return value + 1; }

// Whether a Task's body could `co_await` an A: the promise's
// await_transform decides.
template <class A>
constexpr bool awaitable_in_a_task =
    requires(rt::Task<int>::promise_type& promise, A&& awaitable) {
      promise.await_transform(std::forward<A>(awaitable));
    };

}  // namespace

TEST_CASE("a leaf that throws when polled again fails its task and not the runtime" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    std::string message;
    bool is_panic = false;
    int after = runtime.block_on([&]() -> rt::Task<int> {
      auto handle = rt::spawn(fails_after_a_suspension());
      try {
        co_await handle;
      } catch (const rt::JoinError& error) {
        is_panic = error.is_panic();
        message = error.what();
      }
      // The runtime goes on running tasks.
      co_return co_await rt::spawn(plus_one(41));
    }());
    CHECK(is_panic);
    CHECK(message.find("the leaf failed on its second poll") != std::string::npos);
    CHECK(after == 42);
  });
}

TEST_CASE("only Tasks and leaf futures can be awaited inside a Task" * POINTS(1)) {
  // std::suspend_always would suspend the task with no waker kept: it
  // must not compile.
  static_assert(!awaitable_in_a_task<std::suspend_always>);
  static_assert(!awaitable_in_a_task<std::suspend_never>);
  static_assert(!awaitable_in_a_task<rt::Task<int>&>);  // a Task is awaited by value
  static_assert(awaitable_in_a_task<rt::Task<int>>);
  static_assert(awaitable_in_a_task<rt::YieldNow>);
  static_assert(awaitable_in_a_task<rt::JoinHandle<int>&>);
  // And what may be awaited works.
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    CHECK(runtime.block_on([]() -> rt::Task<int> {
      co_await rt::yield_now();
      int value = co_await plus_one(1);
      co_return co_await rt::spawn(plus_one(value));
    }()) == 3);
  });
}
