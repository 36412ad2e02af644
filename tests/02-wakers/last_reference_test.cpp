// Chapter 02: the last reference frees the task, whichever kind it is.
// Here it is a waker woken by value after the task completed and its
// JoinHandle went away. A freed task gives up its share of the scheduler
// (the shared_ptr in its header), and that is what the test watches: a
// task that leaks keeps it.
#include <memory>

#include "flavours.hpp"
#include "graded.hpp"
#include "keep_waker.hpp"
#include "rt/rt.hpp"
#include "rt/task/header.hpp"

namespace {

rt::Task<int> keep_waker(rt::Waker& slot) {
  co_await KeepWaker(slot);
  co_return 1;
}

}  // namespace

// One flavour: the count of the scheduler's owners must not move for any
// other reason while the test reads it.
TEST_CASE("a wake by value that drops the last reference frees the task" * POINTS(2)) {
  rt_test::on_current_thread([](rt::Runtime& runtime) {
    rt::Waker slot;
    int value = runtime.block_on([&]() -> rt::Task<int> { co_return co_await rt::spawn(keep_waker(slot)); }());
    CHECK(value == 1);
    REQUIRE(slot);  // the task is complete, its JoinHandle gone: this is its last reference
    auto* task = static_cast<const rt::detail::Header*>(slot.as_raw().data);
    std::weak_ptr scheduler = task->scheduler;
    long owners = scheduler.use_count();
    slot.wake();
    CHECK_FALSE(slot);
    CHECK(scheduler.use_count() == owners - 1);  // the task is gone, and its share with it
  });
}
