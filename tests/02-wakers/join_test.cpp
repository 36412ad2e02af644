// Chapter 02: a task's exception reaches whoever joins it, as a JoinError
// that is not a cancellation.
#include <stdexcept>
#include <string>

#include "flavours.hpp"
#include "graded.hpp"
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
