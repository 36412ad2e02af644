// Chapter 12: CancellationToken. cancel() wakes every waiter, once and
// for ever; a wait made after it is ready at once; children are cancelled
// with their parent. A cancel that lands between a waiter's Notified and
// its look at the flag is forced with the token's test hook.
#include <atomic>
#include <vector>

#include "counting_waker.hpp"
#include "flavours.hpp"
#include "graded.hpp"
#include "live_allocations.hpp"  // the only file of this chapter that includes it
#include "rt/rt.hpp"
#include "scoped_hook.hpp"

namespace {

rt::Task<> wait_then_count(rt::CancellationToken token, std::atomic<int>& woken) {
  co_await token.cancelled();
  ++woken;
}

rt::CancellationToken* token_to_cancel = nullptr;

}  // namespace

TEST_CASE("cancel wakes every task waiting on the token" * POINTS(3)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    std::atomic<int> woken{0};
    runtime.block_on([](std::atomic<int>& count) -> rt::Task<> {
      rt::CancellationToken token;
      std::vector<rt::JoinHandle<void>> waiters;
      for (int i = 0; i < 5; ++i) waiters.push_back(rt::spawn(wait_then_count(token, count)));
      for (int i = 0; i < 20; ++i) co_await rt::yield_now();
      CHECK_MESSAGE(count.load() == 0, "a waiter woke before the token was cancelled");
      token.cancel();
      for (rt::JoinHandle<void>& waiter : waiters) co_await waiter;
    }(woken));
    CHECK(woken.load() == 5);
  });
}

TEST_CASE("a waiter polled before cancel is woken by it exactly once" * POINTS(2)) {
  rt::CancellationToken token;
  CountingWaker waker;
  rt::Context cx(waker.waker());
  auto wait = token.cancelled();
  REQUIRE_MESSAGE(!wait.poll(cx), "cancelled() was ready before cancel()");
  CHECK(!token.is_cancelled());
  token.cancel();
  CHECK_MESSAGE(waker.wakes() == 1, "cancel() did not wake the waiter that was waiting");
  CHECK(token.is_cancelled());
  CHECK(wait.poll(cx));
  token.cancel();  // a second cancel changes nothing
  CHECK(waker.wakes() == 1);
}

TEST_CASE("a cancelled() made after cancel is ready at once" * POINTS(1)) {
  rt::CancellationToken token;
  rt::CancellationToken copy = token;
  copy.cancel();
  CountingWaker waker;
  rt::Context cx(waker.waker());
  auto wait = token.cancelled();
  CHECK_MESSAGE(wait.poll(cx), "a copy's cancel() did not reach the token it was copied from");
}

TEST_CASE("a child token is cancelled with its parent and cancelling a child leaves the parent" * POINTS(2)) {
  rt::CancellationToken parent;
  rt::CancellationToken child = parent.child_token();
  rt::CancellationToken grandchild = child.child_token();
  rt::CancellationToken other = parent.child_token();
  other.cancel();
  CHECK_MESSAGE(!parent.is_cancelled(), "cancelling a child cancelled its parent");
  CHECK(!child.is_cancelled());
  CountingWaker waker;
  rt::Context cx(waker.waker());
  auto wait = grandchild.cancelled();
  REQUIRE(!wait.poll(cx));
  parent.cancel();
  CHECK_MESSAGE(child.is_cancelled(), "the parent's cancel() did not cancel its child");
  CHECK_MESSAGE(grandchild.is_cancelled(), "the parent's cancel() did not reach its child's child");
  CHECK(waker.wakes() == 1);
  CHECK(parent.child_token().is_cancelled());  // a child of a cancelled token is born cancelled
}

TEST_CASE("a long-lived token keeps no record of children that are gone and still cancels the live one" * POINTS(1)) {
  // A server's stop token outlives every connection's child: a record of
  // each child that ever was would grow with every connection served.
  rt::CancellationToken parent;
  rt::CancellationToken live = parent.child_token();
  for (int i = 0; i < 8; ++i) (void)parent.child_token();
  long before = rt_test::live_allocations();
  for (int i = 0; i < 1000; ++i) (void)parent.child_token();
  long grown = rt_test::live_allocations() - before;
  INFO("blocks still allocated after 1000 children came and went: " << grown);
  CHECK(grown < 8);
  parent.cancel();
  CHECK_MESSAGE(live.is_cancelled(), "the child still alive was forgotten with the dead ones");
}

TEST_CASE("a cancel between a waiter's Notified and its look at the flag still ends the wait" * POINTS(3)) {
  rt::CancellationToken token;
  token_to_cancel = &token;
  rt_test::ScopedHook<void (*)()> hook(rt::detail::after_notified_made, [] {
    if (token_to_cancel) std::exchange(token_to_cancel, nullptr)->cancel();  // once
  });
  CountingWaker waker;
  rt::Context cx(waker.waker());
  auto wait = token.cancelled();
  bool ready = wait.poll(cx);
  CHECK_MESSAGE((ready || waker.wakes() == 1),
                "the token was cancelled during the waiter's poll, and the waiter neither saw it nor was woken: "
                "it waits for ever");
}

TEST_CASE("select answers the leaf that is ready first and a cancellation ends a wait on a channel" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::CancellationToken token;
      auto [sender, receiver] = rt::oneshot::channel<int>();
      auto canceller = rt::spawn([](rt::CancellationToken t) -> rt::Task<> {
        t.cancel();
        co_return;
      }(token));
      auto stop = token.cancelled();
      std::size_t first = co_await rt::select(receiver, stop);
      CHECK_MESSAGE(first == 1, "select did not answer the cancellation, the only leaf that became ready");
      co_await canceller;
      // The channel's leaf was polled, not consumed: it still gets its value.
      sender.send(9);
      CHECK((co_await receiver) == 9);
    }());
  });
}

namespace {

// A waker whose wake polls the wait again, at once, from inside cancel():
// the earliest moment a woken task on another worker could look.
struct Repoll {
  rt::CancellationToken::WaitForCancellation* wait = nullptr;
  const rt::Waker* waker = nullptr;
  int wakes = 0;
  bool ready_when_woken = false;
};
Repoll repoll;

rt::RawWaker repoll_clone(const void* data);
void repoll_wake_by_ref(const void*) {
  ++repoll.wakes;
  rt::Context cx(*repoll.waker);
  repoll.ready_when_woken = repoll.wait->poll(cx);
}
void repoll_wake(const void* data) { repoll_wake_by_ref(data); }
void repoll_drop(const void*) {}
constexpr rt::RawWakerVTable repoll_vtable{&repoll_clone, &repoll_wake, &repoll_wake_by_ref, &repoll_drop};
rt::RawWaker repoll_clone(const void* data) { return {data, &repoll_vtable}; }

}  // namespace

TEST_CASE("a waiter woken by cancel that looks again at once finds the token cancelled" * POINTS(2)) {
  rt::CancellationToken token;
  auto wait = token.cancelled();
  rt::Waker waker = rt::Waker::from_raw({&repoll, &repoll_vtable});
  repoll = {&wait, &waker, 0, false};
  rt::Context cx(waker);
  REQUIRE(!wait.poll(cx));
  token.cancel();
  REQUIRE(repoll.wakes >= 1);
  CHECK_MESSAGE(repoll.ready_when_woken,
                "cancel() woke the waiter before the token said it was cancelled: a waiter that looks at once "
                "finds it not cancelled, waits again, and nobody wakes it a second time");
}
