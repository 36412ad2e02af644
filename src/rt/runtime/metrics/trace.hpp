//@ file capstone..
// Trace: what each worker did, when, written as a Chrome trace-event file
// that Perfetto (ui.perfetto.dev) and chrome://tracing open, and that
// scripts/trace draws as an SVG. Tokio's counterpart is the tracing
// instrumentation its `tokio_unstable` runtime emits (task polls, worker
// parks) for tokio-console and the like; this one is a file, not a stream.
//
// Each worker appends to a buffer of its own, without a lock: only its
// thread writes it, and the file is written after every worker stopped.
// A buffer holds at most `max_events`; beyond that it counts what it
// dropped, and the file says so.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rt::detail {

class TraceBuffer {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t max_events = 1 << 20;

  // A task was polled from `start` for `duration`.
  void poll(Clock::time_point start, Clock::duration duration, const void* task) {
    push({Kind::poll, start, duration, reinterpret_cast<std::uintptr_t>(task), 0});
  }
  // The worker slept from `start` for `duration`.
  void park(Clock::time_point start, Clock::duration duration) {
    push({Kind::park, start, duration, 0, 0});
  }
  // The worker took `tasks` tasks from another worker's ring at `at`.
  void steal(Clock::time_point at, std::uint64_t tasks) {
    push({Kind::steal, at, {}, 0, static_cast<std::size_t>(tasks)});
  }

  // What the writer reads, once every worker has stopped.
  enum class Kind : std::uint8_t { poll, park, steal };
  struct Event {
    Kind kind;
    Clock::time_point start;
    Clock::duration duration;
    std::uintptr_t a;  // poll: the task
    std::size_t b;     // steal: how many tasks
  };
  const std::vector<Event>& events() const { return events_; }
  std::uint64_t dropped() const { return dropped_; }

 private:

  void push(const Event& event) {
    if (events_.size() < max_events) events_.push_back(event);
    else ++dropped_;
  }

  std::vector<Event> events_;
  std::uint64_t dropped_ = 0;
};

// Writes every worker's buffer to one file.
class TraceWriter {
 public:
  struct About {
    std::string runtime;   // what made it (the program's name for it)
    std::string flavour;   // current_thread or multi_thread
  };

  // Throws std::system_error when the file cannot be written.
  static void write(const std::string& path, const About& about, TraceBuffer::Clock::time_point epoch,
                    const std::vector<const TraceBuffer*>& workers);
};

}  // namespace rt::detail
