// Chapter 03: a primitive that wakes more waiters at once than a WakeList
// holds wakes every one of them, a batch at a time, and allocates nothing
// to do it: a channel's close (the semaphore's), and notify_waiters.
//
// The waiters are leaf futures polled by hand, each with a waker that
// counts (tests/support/counting_waker.hpp): no runtime and no other
// thread, so what the test counts is exactly what one call did. This file
// replaces the global operator new with one that counts, for the whole
// test binary; the tests read the count around the call they measure.
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <deque>
#include <new>

#include "counting_waker.hpp"
#include "frame_pool_off.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "rt/sync/wait_list.hpp"  // WakeList::kCapacity

// g++ 12 inlines these hooks and then mistakes their malloc/free pairs for
// a mismatch with the new-expressions that call them.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

namespace {

std::atomic<long> allocations{0};

}  // namespace

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* block = std::malloc(size ? size : 1)) return block;
  throw std::bad_alloc();
}
void operator delete(void* block) noexcept { std::free(block); }
void operator delete(void* block, std::size_t) noexcept { std::free(block); }

namespace {

// Three full batches and a part of one more.
constexpr std::size_t kWaitersPastCapacity = 3 * rt::detail::WakeList::kCapacity + 5;

// One waiting Notified, and the waker its task would have (declared
// first, so that it outlives whatever clone of it the future keeps).
struct NotifyWaiter {
  explicit NotifyWaiter(rt::Notify& notify) : notified(notify) {}
  CountingWaker waker;
  rt::Notify::Notified notified;
};

// One send waiting for a slot, and the waker its task would have.
struct SendWaiter {
  SendWaiter(rt::mpsc::Sender<int>& tx, int value) : send(tx.send(value)) {}
  CountingWaker waker;
  rt::mpsc::Sender<int>::Send send;
};

// How many were woken exactly once, and how many wakers are still held.
template <class Waiters>
void count(const Waiters& waiters, std::size_t& woken_once, long& held) {
  woken_once = 0;
  held = 0;
  for (const auto& waiter : waiters) {
    woken_once += waiter.waker.wakes() == 1 ? 1 : 0;
    held += waiter.waker.held();
  }
}

}  // namespace

TEST_CASE("waking more waiters than a WakeList holds wakes each once and allocates nothing" *
          POINTS(2)) {
  {  // closing a channel wakes every waiting sender
    INFO("closing a channel");
    auto [tx, rx] = rt::mpsc::channel<int>(1);
    REQUIRE(tx.try_send(0).ok());  // full from now on
    std::deque<SendWaiter> waiters;  // never moved once built
    for (std::size_t i = 0; i < kWaitersPastCapacity; ++i) {
      SendWaiter& waiter = waiters.emplace_back(tx, static_cast<int>(i));
      rt::Context cx(waiter.waker.waker());
      REQUIRE_FALSE(waiter.send.poll(cx));  // waits for a slot, its waker kept
    }
    long before = allocations.load();
    rx.close();  // the semaphore's close wakes every waiting sender
    long allocated = allocations.load() - before;
    std::size_t woken_once = 0;
    long held = 0;
    count(waiters, woken_once, held);
    CHECK(woken_once == kWaitersPastCapacity);
    CHECK(held == 0);       // every kept waker was used, none is left behind
    CHECK(allocated == 0);  // collecting the wakers under the lock allocates nothing
    std::size_t failed = 0;
    for (auto& waiter : waiters) {
      rt::Context cx(waiter.waker.waker());
      if (!waiter.send.poll(cx)) continue;
      try {
        waiter.send.await_resume();
      } catch (const rt::mpsc::SendError<int>&) {
        ++failed;  // the receiver is gone: the value comes back
      }
    }
    CHECK(failed == kWaitersPastCapacity);
  }
  {  // notify_waiters wakes every waiter
    INFO("notify_waiters");
    rt::Notify notify;
    std::deque<NotifyWaiter> waiters;
    for (std::size_t i = 0; i < kWaitersPastCapacity; ++i) {
      NotifyWaiter& waiter = waiters.emplace_back(notify);
      rt::Context cx(waiter.waker.waker());
      REQUIRE_FALSE(waiter.notified.poll(cx));  // queued, its waker kept
    }
    long before = allocations.load();
    notify.notify_waiters();
    long allocated = allocations.load() - before;
    std::size_t woken_once = 0;
    long held = 0;
    count(waiters, woken_once, held);
    CHECK(woken_once == kWaitersPastCapacity);
    CHECK(held == 0);
    CHECK(allocated == 0);
    std::size_t ready = 0;
    for (auto& waiter : waiters) {
      rt::Context cx(waiter.waker.waker());
      ready += waiter.notified.poll(cx) ? 1 : 0;
    }
    CHECK(ready == kWaitersPastCapacity);
  }
}
