// Chapter 12: the trace. A runtime built with trace_path writes, when it
// shuts down, a Chrome trace-event file with one complete event per poll
// on the worker that made it, and the workers' names.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

std::string temp_path(const char* name) {
  return std::string("/tmp/rt-trace-") + std::to_string(::getpid()) + "-" + name + ".json";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

rt::Task<> fifty_polls() {
  for (int i = 0; i < 10; ++i) {
    co_await rt::spawn([]() -> rt::Task<> {
      for (int j = 0; j < 4; ++j) co_await rt::yield_now();
    }());
  }
}

}  // namespace

TEST_CASE("a traced multi-thread runtime writes one poll event per poll with the worker that made it" * POINTS(3)) {
  std::string path = temp_path("mt");
  std::optional<rt::RuntimeMetrics> metrics;
  {
    rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(2).trace_path(path).build();
    metrics.emplace(runtime.metrics());
    runtime.block_on(fifty_polls());
  }  // the file is written at shutdown
  std::uint64_t polls = 0;
  for (std::size_t w = 0; w < 2; ++w) polls += metrics->worker_poll_count(w);
  std::string trace = read_file(path);
  std::remove(path.c_str());
  REQUIRE_MESSAGE(!trace.empty(), "no trace file was written at shutdown");
  CHECK(trace.find("\"traceEvents\"") != std::string::npos);
  CHECK(count(trace, "\"name\":\"thread_name\"") == 2);
  CHECK(polls >= 50);
  CHECK_MESSAGE(count(trace, "\"name\":\"poll\"") == polls, "the trace does not hold one event per poll");
  CHECK(count(trace, "\"name\":\"poll\",\"cat\":\"task\",\"ph\":\"X\"") == polls);
}

TEST_CASE("a traced current-thread runtime writes its polls as worker 0" * POINTS(2)) {
  std::string path = temp_path("ct");
  {
    rt::Runtime runtime = rt::Builder::new_current_thread().trace_path(path).build();
    runtime.block_on(fifty_polls());
  }
  std::string trace = read_file(path);
  std::remove(path.c_str());
  REQUIRE(!trace.empty());
  CHECK(trace.find("\"flavour\":\"current_thread\"") != std::string::npos);
  CHECK(count(trace, "\"name\":\"poll\"") == 50);
  CHECK(count(trace, "\"tid\":1") == 0);
}
