// Chapter 10's experiments: what a sleep really lasts (E7), the timer wheel
// against a binary heap (E9), and what a sleep says on a runtime without
// timers (E2, its timers half).
//
//   build/experiments/10-timers [--only e7|e9|e2] [--sleeps N]
//                               [--timers 1000,10000,100000] [--span-ms MS]
//   valgrind --tool=callgrind build/experiments/10-timers --only e9
//
// E7: on a current-thread runtime with enable_time, 100 sleeps per row of
// 100 us, 1,000 us and 1,500 us, one after another: mean, min and max of
// the time each took. Tokio's published means: 1.6-1.8 ms, 2.9-3.3 ms,
// 2.9-3.3 ms; a sub-millisecond sleep never returns in under 1 ms.
//
// E9: n timers with random deadlines within 10 minutes, inserted, fired
// and cancelled, in the runtime's own wheel (rt::detail::Wheel, driven by
// hand: no runtime, no clock) and in a binary heap written here, which
// cancels by the index each timer keeps of its place; then inserted in the
// heap's worst order (each sooner than all before it) and cancelled
// soonest first. Nanoseconds per operation (the median of several rounds);
// run under `valgrind --tool=callgrind`, instructions per operation
// instead: counts that do not depend on the machine's load. Tokio's
// result: insert and cancel O(1) in the wheel, O(log n) in the heap.
//
// E2: a sleep on a runtime built without enable_time, and outside any
// runtime: the messages, beside Tokio's.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fmt/core.h>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

#include "command_line.hpp"
#include "rt/rt.hpp"
#include "rt/time/entry.hpp"
#include "rt/time/wheel.hpp"

#if __has_include(<valgrind/callgrind.h>)
#include <optional>
#include <valgrind/callgrind.h>
#define EXPERIMENT_HAS_CALLGRIND 1
#else
#define EXPERIMENT_HAS_CALLGRIND 0
#endif

namespace {

using std::chrono::steady_clock;
using namespace std::chrono_literals;

double ms(steady_clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// ---------------------------------------------------------------- E7

void granularity(std::size_t sleeps) {
  struct Row {
    const char* name;
    std::chrono::microseconds duration;
    const char* tokio;
  };
  const Row rows[] = {
      {"100 us", 100us, "1.6-1.8"},
      {"1000 us", 1000us, "2.9-3.3"},
      {"1500 us", 1500us, "2.9-3.3"},
  };
  fmt::print("E7: {} sleeps per row, one after another, on a current-thread runtime with enable_time\n\n", sleeps);
  fmt::print("{:<9} {:>9} {:>9} {:>9} {:>10}   {:>14}\n", "sleep", "mean ms", "min ms", "max ms", "under 1 ms",
             "Tokio mean ms");
  rt::Runtime runtime = rt::Builder::new_current_thread().enable_time().build();
  for (const Row& row : rows) {
    std::vector<steady_clock::duration> took = runtime.block_on(
        [](std::chrono::microseconds duration, std::size_t count) -> rt::Task<std::vector<steady_clock::duration>> {
          std::vector<steady_clock::duration> times;
          times.reserve(count);
          for (std::size_t i = 0; i < count; ++i) {
            auto start = steady_clock::now();
            co_await rt::time::sleep(duration);
            times.push_back(steady_clock::now() - start);
          }
          co_return times;
        }(row.duration, sleeps));
    steady_clock::duration total{};
    for (auto t : took) total += t;
    auto [min, max] = std::minmax_element(took.begin(), took.end());
    auto under = std::count_if(took.begin(), took.end(), [](auto t) { return t < 1ms; });
    fmt::print("{:<9} {:>9.2f} {:>9.2f} {:>9.2f} {:>10}   {:>14}\n", row.name, ms(total) / double(took.size()),
               ms(*min), ms(*max), under, row.tokio);
  }
  fmt::print(
      "\nThe rule: a deadline rounds up to the next 1 ms tick, and the driver sleeps in epoll_wait for\n"
      "whole milliseconds, so no sleep, however short, returns in under 1 ms.\n");
}

// ---------------------------------------------------------------- E9

// A binary min-heap of timers that cancels by index: each timer keeps its
// place in the array, updated on every move, so that removing one is a
// sift from where it is, not a search.
struct HeapTimer {
  std::uint64_t deadline = 0;
  std::size_t index = 0;
};

class TimerHeap {
 public:
  void reserve(std::size_t n) { heap_.reserve(n); }
  bool empty() const { return heap_.empty(); }

  void insert(HeapTimer* timer) {
    heap_.push_back(timer);
    sift_up(heap_.size() - 1, timer);
  }

  void remove(HeapTimer* timer) {
    std::size_t hole = timer->index;
    HeapTimer* last = heap_.back();
    heap_.pop_back();
    if (last == timer) return;
    // The last timer fills the hole, then goes down or up to its place.
    if (hole > 0 && last->deadline < heap_[(hole - 1) / 2]->deadline) sift_up(hole, last);
    else sift_down(hole, last);
  }

  // The earliest timer if it is due at `now`, taken out; nullptr if none.
  HeapTimer* poll(std::uint64_t now) {
    if (heap_.empty() || heap_.front()->deadline > now) return nullptr;
    HeapTimer* first = heap_.front();
    remove(first);
    return first;
  }

 private:
  void place(std::size_t at, HeapTimer* timer) {
    heap_[at] = timer;
    timer->index = at;
  }
  void sift_up(std::size_t hole, HeapTimer* timer) {
    while (hole > 0) {
      std::size_t parent = (hole - 1) / 2;
      if (heap_[parent]->deadline <= timer->deadline) break;
      place(hole, heap_[parent]);
      hole = parent;
    }
    place(hole, timer);
  }
  void sift_down(std::size_t hole, HeapTimer* timer) {
    const std::size_t size = heap_.size();
    for (;;) {
      std::size_t child = 2 * hole + 1;
      if (child >= size) break;
      if (child + 1 < size && heap_[child + 1]->deadline < heap_[child]->deadline) ++child;
      if (timer->deadline <= heap_[child]->deadline) break;
      place(hole, heap_[child]);
      hole = child;
    }
    place(hole, timer);
  }

  std::vector<HeapTimer*> heap_;
};

// Instructions under callgrind: each measured phase is bracketed by a
// zeroing and a dump of callgrind's counters, and the dump is read back.
class Instructions {
 public:
  explicit Instructions(std::string prefix) : prefix_(std::move(prefix)) {}
  static bool available() {
#if EXPERIMENT_HAS_CALLGRIND
    return RUNNING_ON_VALGRIND != 0;
#else
    return false;
#endif
  }
  void start() {
#if EXPERIMENT_HAS_CALLGRIND
    CALLGRIND_ZERO_STATS;
#endif
  }
  // The instructions since start(); 0 if the dump cannot be read.
  std::uint64_t stop(const std::string& label) {
#if EXPERIMENT_HAS_CALLGRIND
    CALLGRIND_DUMP_STATS_AT(label.c_str());
#else
    (void)label;
#endif
    // Callgrind numbers its dumps FILE.1, FILE.2, ... after the file its
    // --callgrind-out-file names (callgrind.out.PID unless it is given).
    std::string file = fmt::format("{}.{}", prefix_, ++dumps_);
    std::ifstream in(file);
    if (!in) {
      missed_ = true;
      return 0;
    }
    std::string line;
    std::uint64_t total = 0;
    while (std::getline(in, line)) {
      if (line.rfind("totals:", 0) == 0) total = std::stoull(line.substr(7));
    }
    in.close();
    std::remove(file.c_str());  // read: not left behind
    return total;
  }
  bool missed() const { return missed_; }

 private:
  std::string prefix_;
  unsigned dumps_ = 0;
  bool missed_ = false;
};

struct Cost {
  double insert = 0, cancel = 0, fire = 0;  // ns (or instructions) per operation
};

// The median of a round's figures.
double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

struct Workload {
  std::vector<std::uint64_t> deadlines;  // ticks, 1..span
  std::vector<std::size_t> cancel_order;
  std::uint64_t span = 0;
};

Workload make_workload(std::size_t n, std::uint64_t span, std::uint64_t seed) {
  Workload w;
  w.span = span;
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::uint64_t> when(1, span);
  w.deadlines.resize(n);
  for (auto& d : w.deadlines) d = when(random);
  w.cancel_order.resize(n);
  for (std::size_t i = 0; i < n; ++i) w.cancel_order[i] = i;
  std::shuffle(w.cancel_order.begin(), w.cancel_order.end(), random);
  return w;
}

// The same deadlines in the heap's worst order: each timer inserted is
// sooner than every timer before it (it rises to the root), and the
// soonest is cancelled first (the hole is at the root). A server whose
// short request timeouts join many long idle timeouts, and whose requests
// mostly finish in time, comes close to it. Equal deadlines would stop a
// rising timer early, so they are made distinct (while the span allows).
Workload soonest_first(Workload w) {
  std::sort(w.deadlines.begin(), w.deadlines.end(), std::greater<>());
  for (std::size_t i = 1; i < w.deadlines.size(); ++i) {
    if (w.deadlines[i] >= w.deadlines[i - 1] && w.deadlines[i - 1] > 1) w.deadlines[i] = w.deadlines[i - 1] - 1;
  }
  for (std::size_t i = 0; i < w.cancel_order.size(); ++i) w.cancel_order[i] = w.cancel_order.size() - 1 - i;
  return w;
}

// One phase, timed (or counted): `setup` untimed, then `body`, which does
// n operations.
class Meter {
 public:
  Meter(std::size_t rounds, Instructions* instructions) : rounds_(rounds), instructions_(instructions) {}

  double per_op(const std::string& label, std::size_t n, const std::function<void()>& setup,
                const std::function<void()>& body, const std::function<void()>& teardown) {
    std::vector<double> figures;
    for (std::size_t r = 0; r < rounds_; ++r) {
      setup();
      if (instructions_) {
        instructions_->start();
        body();
        figures.push_back(double(instructions_->stop(label)) / double(n));
      } else {
        auto start = steady_clock::now();
        body();
        auto took = std::chrono::duration<double, std::nano>(steady_clock::now() - start).count();
        figures.push_back(took / double(n));
      }
      teardown();
    }
    return median(figures);
  }

 private:
  std::size_t rounds_;
  Instructions* instructions_;
};

Cost measure_wheel(const Workload& w, Meter& meter, const std::string& tag, bool fire) {
  const std::size_t n = w.deadlines.size();
  std::vector<rt::detail::TimerEntry> entries(n);
  std::unique_ptr<rt::detail::Wheel> wheel;
  auto fresh = [&] {
    wheel = std::make_unique<rt::detail::Wheel>();
    for (std::size_t i = 0; i < n; ++i) entries[i].deadline = w.deadlines[i];
  };
  auto fill = [&] {
    fresh();
    for (auto& e : entries) wheel->insert(&e);
  };
  auto nothing = [] {};
  Cost cost;
  cost.insert = meter.per_op(tag + " wheel insert", n, fresh, [&] {
    for (auto& e : entries) wheel->insert(&e);
  }, nothing);
  cost.cancel = meter.per_op(tag + " wheel cancel", n, fill, [&] {
    for (std::size_t i : w.cancel_order) wheel->remove(&entries[i]);
  }, nothing);
  if (!fire) return cost;
  std::size_t fired = 0;
  cost.fire = meter.per_op(tag + " wheel fire", n, fill, [&] {
    // As the driver does, but at once: every slot up to the last deadline.
    while (wheel->poll(w.span) != nullptr) ++fired;
  }, [&] {
    if (fired != n) throw std::logic_error(fmt::format("the wheel fired {} of {} timers", fired, n));
    fired = 0;
  });
  return cost;
}

Cost measure_heap(const Workload& w, Meter& meter, const std::string& tag, bool fire) {
  const std::size_t n = w.deadlines.size();
  std::vector<HeapTimer> timers(n);
  std::unique_ptr<TimerHeap> heap;
  auto fresh = [&] {
    heap = std::make_unique<TimerHeap>();
    heap->reserve(n);
    for (std::size_t i = 0; i < n; ++i) timers[i].deadline = w.deadlines[i];
  };
  auto fill = [&] {
    fresh();
    for (auto& t : timers) heap->insert(&t);
  };
  auto nothing = [] {};
  Cost cost;
  cost.insert = meter.per_op(tag + " heap insert", n, fresh, [&] {
    for (auto& t : timers) heap->insert(&t);
  }, nothing);
  cost.cancel = meter.per_op(tag + " heap cancel", n, fill, [&] {
    for (std::size_t i : w.cancel_order) heap->remove(&timers[i]);
  }, nothing);
  if (!fire) return cost;
  std::size_t fired = 0;
  cost.fire = meter.per_op(tag + " heap fire", n, fill, [&] {
    while (heap->poll(w.span) != nullptr) ++fired;
  }, [&] {
    if (fired != n) throw std::logic_error(fmt::format("the heap fired {} of {} timers", fired, n));
    fired = 0;
  });
  return cost;
}

void print_costs(std::size_t n, std::size_t rounds, const Cost& wheel, const Cost& heap, bool fire) {
  auto row = [&](std::string first, std::string second, double insert, double cancel, double fired,
                 const char* what, int digits) {
    std::string last = fire ? fmt::format("{:>13.{}f}", fired, digits) : "";
    fmt::print("{:>8} {:>7}   {:>13.{}f} {:>13.{}f} {}   {}\n", first, second, insert, digits, cancel, digits, last,
               what);
  };
  row(fmt::format("{}", n), fmt::format("{}", rounds), wheel.insert, wheel.cancel, wheel.fire, "wheel", 1);
  row("", "", heap.insert, heap.cancel, heap.fire, "heap", 1);
  row("", "", heap.insert / wheel.insert, heap.cancel / wheel.cancel, heap.fire / wheel.fire, "heap / wheel", 2);
}

void wheel_against_heap(const std::vector<std::size_t>& sizes, std::uint64_t span, std::size_t operations,
                        const std::string& callgrind_out) {
  const bool counting = Instructions::available();
  Instructions instructions(callgrind_out);
  const char* unit = counting ? "instr" : "ns";
  fmt::print("E9: n timers, deadlines uniform in 1..{} ms; the runtime's wheel (driven by hand) against a\n"
             "binary heap that cancels by index. {} per operation{}.\n",
             span, counting ? "Instructions" : "Nanoseconds",
             counting ? ", counted by callgrind (one round)" : ", the median of the rounds");
  std::vector<Workload> random, worst;
  for (std::size_t n : sizes) {
    random.push_back(make_workload(n, span, 10 + n));
    worst.push_back(soonest_first(random.back()));
  }
  auto rounds_for = [&](std::size_t n) { return counting ? 1 : std::max<std::size_t>(5, operations / n); };

  fmt::print("\nDeadlines in random order, cancelled in random order:\n");
  fmt::print("{:>8} {:>7}   {:>13} {:>13} {:>13}\n", "n", "rounds", fmt::format("insert {}", unit),
             fmt::format("cancel {}", unit), fmt::format("fire {}", unit));
  for (const Workload& w : random) {
    const std::size_t n = w.deadlines.size();
    Meter meter(rounds_for(n), counting ? &instructions : nullptr);
    Cost wheel = measure_wheel(w, meter, fmt::format("random n={}", n), true);
    Cost heap = measure_heap(w, meter, fmt::format("random n={}", n), true);
    print_costs(n, rounds_for(n), wheel, heap, true);
  }

  fmt::print("\nThe heap's worst order: each timer sooner than all before it, the soonest cancelled first:\n");
  fmt::print("{:>8} {:>7}   {:>13} {:>13}\n", "n", "rounds", fmt::format("insert {}", unit),
             fmt::format("cancel {}", unit));
  for (const Workload& w : worst) {
    const std::size_t n = w.deadlines.size();
    Meter meter(rounds_for(n), counting ? &instructions : nullptr);
    Cost wheel = measure_wheel(w, meter, fmt::format("worst n={}", n), false);
    Cost heap = measure_heap(w, meter, fmt::format("worst n={}", n), false);
    print_costs(n, rounds_for(n), wheel, heap, false);
  }

  if (!counting) {
    fmt::print("\nFor counts that do not depend on the machine's load, run it under callgrind:\n"
               "  valgrind --tool=callgrind build/experiments/10-timers --only e9\n");
  } else if (instructions.missed()) {
    fmt::print("\n(no counts: no callgrind dumps at {}.N. Run it under valgrind --tool=callgrind;\n"
               "if you gave valgrind --callgrind-out-file=FILE, give the program --callgrind-out FILE too)\n",
               callgrind_out);
  }
  fmt::print("\nTokio (E9): insert and cancel O(1) in the wheel, O(log n) in the heap\n");
}

// ---------------------------------------------------------------- E2

std::string message_of(const std::function<void()>& attempt) {
  try {
    attempt();
    return "(no error)";
  } catch (const std::exception& error) {
    return error.what();
  }
}

rt::Task<> one_sleep() { co_await rt::time::sleep(1ms); }

void without_timers() {
  fmt::print("E2: a sleep where there are no timers (a run-time error, not a compile-time one)\n\n");
  struct Case {
    const char* where;
    std::function<void()> attempt;
    const char* tokio;
  };
  const Case cases[] = {
      {"a runtime built without enable_time",
       [] {
         rt::Runtime runtime = rt::Builder::new_current_thread().build();
         runtime.block_on(one_sleep());
       },
       "A Tokio 1.x context was found, but timers are disabled. Call `enable_time` on the runtime "
       "builder to enable timers."},
      {"a runtime with enable_io but not enable_time",
       [] {
         rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(1).enable_io().build();
         runtime.block_on(one_sleep());
       },
       "A Tokio 1.x context was found, but timers are disabled. Call `enable_time` on the runtime "
       "builder to enable timers."},
      {"outside any runtime",
       [] { rt::time::Sleep sleep = rt::time::sleep(1ms); },
       "there is no reactor running, must be called from the context of a Tokio 1.x runtime"},
  };
  for (const Case& c : cases) {
    fmt::print("{}:\n  course: {}\n  Tokio:  {}\n", c.where, message_of(c.attempt), c.tokio);
  }
}

std::vector<std::size_t> parse_sizes(const std::string& text) {
  std::vector<std::size_t> sizes;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t comma = text.find(',', at);
    std::string part = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    std::size_t n = std::stoull(part);
    if (n == 0) throw std::invalid_argument("--timers: each n must be at least 1");
    sizes.push_back(n);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return sizes;
}

}  // namespace

int main(int argc, char** argv) {
  experiments::CommandLine cli{"Chapter 10: what a sleep lasts (E7), the wheel against a heap (E9), no timers (E2)"};
  std::string only = "all";
  std::size_t sleeps = 100;
  std::string timers = "1000,10000,100000";
  std::uint64_t span = 600000;  // 10 minutes
  std::size_t operations = 1000000;
  std::string callgrind_out = fmt::format("callgrind.out.{}", ::getpid());
  cli.text("--only", only, "one experiment: e7, e9 or e2", {"all", "e7", "e9", "e2"});
  cli.positive("--sleeps", sleeps, "E7: sleeps per row");
  cli.text("--timers", timers, "E9: the numbers of timers, comma-separated");
  cli.positive("--span-ms", span, "E9: deadlines are uniform in 1..span ms");
  cli.positive("--operations", operations, "E9: about how many operations each figure is the median over");
  cli.text("--callgrind-out", callgrind_out,
                 "E9 under callgrind: the file valgrind's --callgrind-out-file names (default callgrind.out.PID)");
  if (std::optional<int> done = cli.parse(argc, argv)) return *done;

  std::vector<std::size_t> sizes;
  try {
    sizes = parse_sizes(timers);
  } catch (const std::exception&) {
    fmt::print(stderr, "--timers: a comma-separated list of positive numbers, not \"{}\"\n", timers);
    return 2;
  }

  fmt::print("runtime: {}\n\n", EXPERIMENT_RUNTIME);
  if (only == "all" || only == "e7") {
    granularity(sleeps);
    fmt::print("\n");
  }
  if (only == "all" || only == "e9") {
    wheel_against_heap(sizes, span, operations, callgrind_out);
    fmt::print("\n");
  }
  if (only == "all" || only == "e2") without_timers();
  return 0;
}
