//@ file capstone..
// The trace file, compiled once per runtime; see trace.hpp.
#include "rt/runtime/metrics/trace.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <system_error>

namespace rt::detail {

namespace {

// Microseconds, as the format wants, with nanosecond digits.
double micros(TraceBuffer::Clock::duration duration) {
  return std::chrono::duration<double, std::micro>(duration).count();
}

// One line per event keeps a large file readable with grep.
void write_event(std::FILE* file, std::size_t worker, const TraceBuffer::Event& event,
                 TraceBuffer::Clock::time_point epoch, bool& first) {
  std::fputs(first ? "\n  " : ",\n  ", file);
  first = false;
  double ts = micros(event.start - epoch);
  switch (event.kind) {
    case TraceBuffer::Kind::poll:
      std::fprintf(file,
                   R"({"name":"poll","cat":"task","ph":"X","ts":%.3f,"dur":%.3f,"pid":1,"tid":%zu,"args":{"task":"0x%llx"}})",
                   ts, micros(event.duration), worker, static_cast<unsigned long long>(event.a));
      break;
    case TraceBuffer::Kind::park:
      std::fprintf(file, R"({"name":"park","cat":"worker","ph":"X","ts":%.3f,"dur":%.3f,"pid":1,"tid":%zu})", ts,
                   micros(event.duration), worker);
      break;
    case TraceBuffer::Kind::steal:
      std::fprintf(file,
                   R"({"name":"steal","cat":"worker","ph":"i","s":"t","ts":%.3f,"pid":1,"tid":%zu,"args":{"tasks":%zu}})", ts,
                   worker, event.b);
      break;
  }
}

}  // namespace

void TraceWriter::write(const std::string& path, const About& about, TraceBuffer::Clock::time_point epoch,
                        const std::vector<const TraceBuffer*>& workers) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (!file) throw std::system_error(errno, std::system_category(), "cannot write the trace " + path);
  std::uint64_t dropped = 0;
  for (const TraceBuffer* buffer : workers) dropped += buffer->dropped();
  std::fprintf(file,
               R"({"displayTimeUnit":"ns","otherData":{"runtime":"%s","flavour":"%s","workers":%zu,"dropped_events":%llu},)",
               about.runtime.c_str(), about.flavour.c_str(), workers.size(), static_cast<unsigned long long>(dropped));
  std::fputs("\n \"traceEvents\":[", file);
  bool first = true;
  for (std::size_t worker = 0; worker < workers.size(); ++worker) {
    std::fputs(first ? "\n  " : ",\n  ", file);
    first = false;
    std::fprintf(file, R"({"name":"thread_name","ph":"M","pid":1,"tid":%zu,"args":{"name":"worker %zu"}})", worker,
                 worker);
    for (const TraceBuffer::Event& event : workers[worker]->events()) write_event(file, worker, event, epoch, first);
  }
  std::fputs("\n]}\n", file);
  bool failed = std::ferror(file) != 0;
  if (std::fclose(file) != 0 || failed) {
    throw std::system_error(errno, std::system_category(), "cannot write the trace " + path);
  }
}

}  // namespace rt::detail
