// Chapter 02: a spawned task is one allocation, and nothing outlives what
// references it.
//
// This file replaces the global operator new and delete with versions that
// count, for the whole test binary; the tests here read the counts around
// the code they measure.
#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "flavours.hpp"
#include "frame_pool_off.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

// g++ 12 inlines these hooks and then mistakes their malloc/free pairs for
// a mismatch with the new-expressions that call them.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

namespace {

std::atomic<long> allocations{0};
std::atomic<long> frees{0};

long live() { return allocations.load() - frees.load(); }

}  // namespace

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* block = std::malloc(size ? size : 1)) return block;
  throw std::bad_alloc();
}
void operator delete(void* block) noexcept {
  if (!block) return;
  frees.fetch_add(1, std::memory_order_relaxed);
  std::free(block);
}
void operator delete(void* block, std::size_t) noexcept { operator delete(block); }

namespace {

rt::Task<int> yield_then_return(int value) {
  co_await rt::yield_now();
  co_return value;
}

struct Counts {
  long at_first_spawn = -1;  // allocations made by one `rt::spawn(task())`
  long at_spawn = -1;        // by all the spawns
  long over_life = -1;       // by spawning, running and joining them all
  long freed = -1;           // frees over the same
  long sum = 0;
};

rt::Task<> spawn_run_join(int count, Counts& counts) {
  std::vector<rt::JoinHandle<int>> handles;
  handles.reserve(count);
  long allocated_before = allocations.load();
  long freed_before = frees.load();
  handles.push_back(rt::spawn(yield_then_return(0)));  // the frame's call is counted too
  counts.at_first_spawn = allocations.load() - allocated_before;
  for (int i = 1; i < count; ++i) handles.push_back(rt::spawn(yield_then_return(i)));
  counts.at_spawn = allocations.load() - allocated_before;
  for (auto& handle : handles) counts.sum += co_await handle;
  handles.clear();
  // On a worker the last reference may go a moment after the join (the
  // worker is still finishing the completion): wait for it; a leak would
  // wait for ever, and fail by the grader's timeout.
  while (frees.load() - freed_before < count) co_await rt::yield_now();
  counts.over_life = allocations.load() - allocated_before;
  counts.freed = frees.load() - freed_before;
}

// A leaf that is never ready, and leaves a clone of its waker in `slot`
// on its first poll (then counts it in `parked`).
class Park : public rt::Leaf<Park> {
 public:
  Park(rt::Waker& slot, std::atomic<int>& parked) : slot_(slot), parked_(parked) {}
  bool poll(rt::Context& cx) override {
    if (!slot_) {
      slot_ = cx.waker();
      ++parked_;
    }
    return false;
  }
  void await_resume() const noexcept {}

 private:
  rt::Waker& slot_;
  std::atomic<int>& parked_;
};

rt::Task<> park_forever(rt::Waker& slot, std::atomic<int>& parked, std::atomic<int>& destroyed) {
  struct Tracked {
    std::atomic<int>& destroyed;
    ~Tracked() { ++destroyed; }
  } tracked{destroyed};
  co_await Park(slot, parked);
}

rt::Task<int> quick(int value) { co_return value; }

}  // namespace

TEST_CASE("a spawned task is exactly one allocation frame included" * POINTS(3)) {
  // The counts are global: only on a current-thread runtime is no other
  // thread running (and maybe allocating) while they are read.
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    Counts counts;
    runtime.block_on(spawn_run_join(100, counts));
    CHECK(counts.sum == 99 * 100 / 2);
    CHECK(counts.at_first_spawn == 1);
    CHECK(counts.at_spawn == 100);
    CHECK(counts.over_life == 100);  // running and joining allocate nothing more
    CHECK(counts.freed == 100);      // and every task is freed once joined
  });
}

TEST_CASE("no task outlives its runtime or the wakers kept after it" * POINTS(3)) {
  rt::Waker kept;  // outlives the runtime
  rt::Waker aborted_slot;
  std::atomic<int> destroyed{0};
  std::atomic<int> parked{0};
  // A first run makes what the test framework keeps once allocated.
  rt_test::on_each_runtime([](rt::Runtime&) {});
  long live_before = live();  // before the runtime exists
  rt_test::on_each_runtime(
      [&](rt::Runtime& runtime) {
        runtime.block_on([&]() -> rt::Task<> {
          auto finished = rt::spawn(quick(1));
          co_await finished;
          auto aborted = rt::spawn(park_forever(aborted_slot, parked, destroyed));
          (void)rt::spawn(park_forever(kept, parked, destroyed));  // detached at once, never finishes
          while (parked < 2) co_await rt::yield_now();  // both parked, their wakers kept
          aborted.abort();
          auto never_polled = rt::spawn(quick(2));  // maybe still queued when the runtime goes
        }());
      },
      [&] {  // the runtime is gone
        int destroyed_with_runtime = destroyed;
        aborted_slot = rt::Waker();
        long held = live() - live_before;  // what `kept` still references
        kept.wake_by_ref();                // the runtime is gone: harmless
        rt::Waker copy = kept;
        copy.wake();
        kept = rt::Waker();  // the last reference
        long left = live() - live_before;
        CHECK(destroyed_with_runtime == 2);  // aborted, then cancelled by the shutdown
        CHECK(held > 0);                     // the kept waker's task is still there...
        CHECK(left == 0);                    // ...and freed with the waker's last reference
        destroyed = 0;
        parked = 0;
        live_before = live();  // for the next flavour
      });
}
