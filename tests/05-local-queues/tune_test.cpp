// Chapter 05: the interval between two looks at the global queue follows
// the average poll time, aiming at a look every 200 µs, within 2..127.
#include <chrono>
#include <cstdint>

#include "graded.hpp"
#include "rt/rt.hpp"
#include "rt/scheduler/multi_thread/stats.hpp"

using rt::detail::Stats;
using namespace std::chrono_literals;

namespace {

// One batch of `polls` polls that took `each` apiece.
void batch(Stats& stats, std::uint32_t polls, std::chrono::nanoseconds each) {
  Stats::Clock::time_point start{};  // any instant will do: only differences count
  stats.start_batch(start);
  for (std::uint32_t i = 0; i < polls; ++i) stats.start_poll();
  stats.end_batch(start + each * polls);
}

}  // namespace

TEST_CASE("the global queue interval starts at 61 and follows the average poll time" * POINTS(2)) {
  Stats stats;
  CHECK(stats.tuned_global_queue_interval() == 61);
  // A batch with no poll teaches nothing.
  batch(stats, 0, 1ms);
  CHECK(stats.tuned_global_queue_interval() == 61);
  // Ten polls of 2 µs weigh 1 - 0.9^10 of the average: it falls from
  // 200 µs / 61 to about 2.45 µs, and 200 µs / 2.45 µs is 81 polls.
  batch(stats, 10, 2us);
  CHECK_MESSAGE(stats.mean_poll_time_ns() == doctest::Approx(2445.9).epsilon(0.001),
                "the average poll time did not follow a batch of ten 2 us polls: "
                "n polls weigh 1 - 0.9^n in the average, as n updates of weight 0.1 would");
  CHECK_MESSAGE(stats.tuned_global_queue_interval() == 81,
                "the interval did not follow the poll times: after ten polls of 2 us (an average of 2.45 us) "
                "it must be 200 us / 2.45 us, 81 polls");
}

TEST_CASE("the tuned interval stays within 2 and 127" * POINTS(1)) {
  Stats slow;
  batch(slow, 100, 1ms);  // 1 ms polls: a look after every 0.2 of one
  CHECK(slow.tuned_global_queue_interval() == 2);
  Stats fast;
  batch(fast, 1000, 100ns);  // 2000 polls would fit in 200 µs
  CHECK(fast.tuned_global_queue_interval() == 127);
  Stats instant;
  batch(instant, 50, 0ns);  // an average of zero
  CHECK(instant.tuned_global_queue_interval() == 127);
}
