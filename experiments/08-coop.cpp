// Chapter 08's experiment, E5: how far a task gets before another task
// gets a turn, when everything it awaits is ready at once.
//
//   build/experiments/08-coop [--operations N]
//
// Task A awaits N ready operations of one kind; task B, spawned right after
// it, records how many A had done when B first ran. Tokio, current-thread,
// N = 10,000: a plain ready value 10,000 (no budget involved), a channel
// receive 128, consume_budget 128, yield_now 0. Counts, not times: they
// are the same on every machine.
#include <atomic>
#include <cstddef>
#include <fmt/core.h>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "rt/rt.hpp"

namespace {

using Operation = std::function<rt::Task<>()>;

std::size_t progress_when_the_other_ran(rt::Runtime& runtime, std::size_t total, const Operation& operation) {
  std::atomic<std::size_t> done{0};
  std::atomic<std::size_t> seen{0};
  runtime.block_on([&]() -> rt::Task<> {
    auto a = rt::spawn([&]() -> rt::Task<> {
      for (std::size_t i = 0; i < total; ++i) {
        co_await operation();
        done.fetch_add(1);
      }
    });
    auto b = rt::spawn([&]() -> rt::Task<> {
      seen = done.load();
      co_return;
    });
    co_await a;
    co_await b;
  }());
  return seen.load();
}

rt::Task<int> ready_value() { co_return 1; }

}  // namespace

int main(int argc, char** argv) {
  experiments::CommandLine cli{"Chapter 08, E5: how far a task gets on ready operations before another runs"};
  std::size_t operations = 10000;
  cli.positive("--operations", operations, "ready operations task A awaits");
  if (std::optional<int> done = cli.parse(argc, argv)) return *done;

  struct Kind {
    std::string name;
    std::function<std::size_t(rt::Runtime&)> run;
  };
  std::vector<Kind> kinds = {
      {"a plain ready value",
       [&](rt::Runtime& runtime) {
         return progress_when_the_other_ran(runtime, operations, [] { return []() -> rt::Task<> {
           co_await ready_value();
         }(); });
       }},
      {"an mpsc receive",
       [&](rt::Runtime& runtime) {
         auto [tx, rx] = rt::mpsc::channel<int>(operations);
         for (std::size_t i = 0; i < operations; ++i) (void)tx.try_send(1);
         return progress_when_the_other_ran(runtime, operations, [&rx = rx] { return [](rt::mpsc::Receiver<int>& r) -> rt::Task<> {
           co_await r.recv();
         }(rx); });
       }},
      {"consume_budget",
       [&](rt::Runtime& runtime) {
         return progress_when_the_other_ran(runtime, operations, [] { return []() -> rt::Task<> {
           co_await rt::coop::consume_budget();
         }(); });
       }},
      {"yield_now",
       [&](rt::Runtime& runtime) {
         return progress_when_the_other_ran(runtime, operations, [] { return []() -> rt::Task<> {
           co_await rt::yield_now();
         }(); });
       }},
  };

  fmt::print("runtime: {}; task A awaits {} ready operations; task B records A's progress when it first runs\n\n",
             EXPERIMENT_RUNTIME, operations);
  // Current-thread, as Tokio's figures: there A and B are queued in the
  // order they were spawned, before either runs, whatever the machine does.
  fmt::print("{:<22} {:>16}\n", "operation", "current-thread");
  for (const Kind& kind : kinds) {
    rt::Runtime runtime = rt::Builder::new_current_thread().build();
    fmt::print("{:<22} {:>16}\n", kind.name, kind.run(runtime));
  }
  fmt::print("\nTokio, current-thread: 10000, 128, 128, 0\n");
  return 0;
}
