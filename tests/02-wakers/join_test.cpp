// Chapter 02: a task's exception reaches whoever joins it, as a JoinError
// that is not a cancellation; a finished task's output goes with its JoinHandle.
#include <atomic>
#include <stdexcept>
#include <string>
#include <utility>

#include "flavours.hpp"
#include "graded.hpp"
#include "keep_waker.hpp"
#include "rt/rt.hpp"

namespace {

rt::Task<int> fail_after_a_yield() {
  co_await rt::yield_now();
  throw std::invalid_argument("kaput");
  co_return 0;
}

struct Joined {
  bool threw = false;
  bool is_panic = false;
  bool is_cancelled = true;
  bool original_is_ours = false;
  int after = 0;
};

rt::Task<Joined> join_failing_task() {
  Joined joined;
  auto handle = rt::spawn(fail_after_a_yield());
  try {
    co_await handle;
  } catch (const rt::JoinError& error) {
    joined.threw = true;
    joined.is_panic = error.is_panic();
    joined.is_cancelled = error.is_cancelled();
    try {
      std::rethrow_exception(error.original());
    } catch (const std::invalid_argument& original) {
      joined.original_is_ours = std::string(original.what()) == "kaput";
    } catch (...) {
    }
  }
  // The runtime goes on: another task still runs and joins.
  joined.after = co_await rt::spawn([]() -> rt::Task<int> {
    co_await rt::yield_now();
    co_return 11;
  });
  co_return joined;
}

}  // namespace

TEST_CASE("joining a task that threw gives a JoinError holding its exception" * POINTS(2)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    Joined joined = runtime.block_on(join_failing_task());
    CHECK(joined.threw);
    CHECK(joined.is_panic);
    CHECK_FALSE(joined.is_cancelled);
    CHECK(joined.original_is_ours);
    CHECK(joined.after == 11);
  });
}

namespace {

// Counts, in `*destroyed`, the destruction of the one a task returns
// (moved-from copies do not count).
class Output {
 public:
  explicit Output(std::atomic<int>& destroyed) : destroyed_(&destroyed) {}
  Output(Output&& other) noexcept : destroyed_(std::exchange(other.destroyed_, nullptr)) {}
  Output& operator=(Output&&) = delete;
  ~Output() {
    if (destroyed_) destroyed_->fetch_add(1);
  }

 private:
  std::atomic<int>* destroyed_;
};

rt::Task<Output> keep_waker_and_return(rt::Waker& slot, std::atomic<int>& destroyed) {
  co_await KeepWaker(slot);
  co_return Output(destroyed);
}

struct Dropped {
  int before_drop = -1;
  int after_drop = -1;
};

rt::Task<Dropped> drop_finished_handle(rt::Waker& slot, std::atomic<int>& destroyed) {
  Dropped seen;
  {
    auto handle = rt::spawn(keep_waker_and_return(slot, destroyed));
    while (!handle.is_finished()) co_await rt::yield_now();
    seen.before_drop = destroyed;
  }  // the JoinHandle goes, unjoined, while `slot` keeps the task
  seen.after_drop = destroyed;
  co_return seen;
}

}  // namespace

TEST_CASE("dropping the JoinHandle of a finished task destroys its output at once" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    rt::Waker slot;
    std::atomic<int> destroyed{0};
    Dropped seen = runtime.block_on(drop_finished_handle(slot, destroyed));
    CHECK(seen.before_drop == 0);  // kept for a joiner
    CHECK_MESSAGE(seen.after_drop == 1,
                  "the output of a finished task outlived its JoinHandle: it lives as long as any "
                  "waker of the task, although nobody can take it any more");
    slot = rt::Waker();
  });
}
