// Chapter 12: the poll-time histogram and the counts Tokio's metrics keep.
// Bucket boundaries are checked exactly on the histogram itself; the
// runtime's counts are checked where nothing else can change them.
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

using namespace std::chrono_literals;

namespace {

std::uint64_t total_polls(const rt::RuntimeMetrics& metrics, std::size_t workers) {
  std::uint64_t polls = 0;
  for (std::size_t w = 0; w < workers; ++w) {
    for (std::size_t b = 0; b < metrics.poll_time_histogram_num_buckets(); ++b) {
      polls += metrics.poll_time_histogram_bucket_count(w, b);
    }
  }
  return polls;
}

}  // namespace

TEST_CASE("a linear histogram puts a poll of d into bucket d / resolution and the rest into the last" * POINTS(2)) {
  rt::detail::Histogram histogram(rt::HistogramConfig::linear(100us, 10));
  CHECK(histogram.bucket_of(0) == 0);
  CHECK(histogram.bucket_of(99'999) == 0);
  CHECK_MESSAGE(histogram.bucket_of(100'000) == 1, "a poll of exactly one resolution belongs to bucket 1");
  CHECK(histogram.bucket_of(950'000) == 9);
  CHECK_MESSAGE(histogram.bucket_of(5'000'000'000) == 9, "a poll longer than the buckets reach belongs to the last");
  CHECK(histogram.bucket_range(1) == std::pair<std::uint64_t, std::uint64_t>(100'000, 200'000));
  CHECK(histogram.bucket_range(9).second == std::numeric_limits<std::uint64_t>::max());
}

TEST_CASE("a log histogram doubles its buckets: 0 then [r 2r) then [2r 4r) and so on" * POINTS(3)) {
  rt::detail::Histogram histogram(rt::HistogramConfig::log(1us, 8));
  CHECK(histogram.bucket_of(0) == 0);
  CHECK(histogram.bucket_of(999) == 0);
  CHECK_MESSAGE(histogram.bucket_of(1'000) == 1, "a poll of exactly one resolution belongs to bucket 1, [r, 2r)");
  CHECK(histogram.bucket_of(1'999) == 1);
  CHECK(histogram.bucket_of(2'000) == 2);
  CHECK(histogram.bucket_of(3'999) == 2);
  CHECK(histogram.bucket_of(4'000) == 3);
  CHECK(histogram.bucket_of(63'999) == 6);
  CHECK(histogram.bucket_of(64'000) == 7);
  CHECK(histogram.bucket_of(std::numeric_limits<std::uint64_t>::max()) == 7);
  CHECK(histogram.bucket_range(3) == std::pair<std::uint64_t, std::uint64_t>(4'000, 8'000));
}

TEST_CASE("with the histogram enabled every poll of a task is counted in one bucket" * POINTS(2)) {
  for (bool multi_thread : {false, true}) {
    INFO(std::string(multi_thread ? "on a multi-thread runtime" : "on the current-thread runtime"));
    std::optional<rt::RuntimeMetrics> metrics;
    {
      rt::Builder builder = multi_thread ? rt::Builder::new_multi_thread().worker_threads(2)
                                         : rt::Builder::new_current_thread();
      rt::Runtime runtime = builder.enable_metrics_poll_time_histogram()
                                .metrics_poll_time_histogram_configuration(rt::HistogramConfig::log(1us, 12))
                                .build();
      metrics.emplace(runtime.metrics());
      CHECK(metrics->poll_time_histogram_enabled());
      CHECK(metrics->poll_time_histogram_num_buckets() == 12);
      runtime.block_on([]() -> rt::Task<> {
        for (int i = 0; i < 10; ++i) {
          co_await rt::spawn([]() -> rt::Task<> {
            for (int j = 0; j < 4; ++j) co_await rt::yield_now();  // five polls
          }());
        }
      }());
    }  // shut down: every worker has recorded its last poll
    std::size_t workers = metrics->num_workers();
    std::uint64_t polls = 0;
    for (std::size_t w = 0; w < workers; ++w) polls += metrics->worker_poll_count(w);
    if (!multi_thread) polls = 50;  // a current-thread runtime keeps no poll count: 10 tasks of 5 polls
    CHECK_MESSAGE(total_polls(*metrics, workers) == polls, "the histogram's buckets do not add up to the polls");
    CHECK(total_polls(*metrics, workers) >= 50);
  }
}

TEST_CASE("spawned_tasks_count and budget_forced_yield_count count what they say" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    rt::RuntimeMetrics metrics = runtime.metrics();
    runtime.block_on([]() -> rt::Task<> {
      rt::JoinSet<int> set;
      for (int i = 0; i < 7; ++i) set.spawn([](int v) -> rt::Task<int> { co_return v; }(i));
      while (co_await set.join_next()) {
      }
      // 300 ready operations in one task: the budget of 128 refuses twice.
      co_await rt::spawn([]() -> rt::Task<> {
        for (int i = 0; i < 300; ++i) co_await rt::coop::consume_budget();
      }());
    }());
    CHECK(metrics.spawned_tasks_count() == 8);
    CHECK(metrics.budget_forced_yield_count() == 2);
  });
}
