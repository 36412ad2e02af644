// The benchmark program for one of the course's runtimes: built once per
// runtime (bench-solutions-03, bench-chapters-03, ...) by bench/meson.build,
// which defines BENCH_RUNTIME (its name).
#include <memory>
#include <string>

#include "../program.hpp"
#include "blocking.hpp"
#include "chained_spawn.hpp"
#include "echo.hpp"
#include "ping_pong.hpp"
#include "ping_pong_upstream.hpp"
#include "spawn_many.hpp"
#include "timers.hpp"
#include "yield_many.hpp"

namespace {

using namespace bench;
using namespace bench::course;

std::unique_ptr<Workload> make(const Options& o) {
  const std::string& w = o.workload;
  if (w == "spawn_many_local") return std::make_unique<SpawnManyLocal>(o.flavour, o.workers);
  if (w == "spawn_many_remote_idle") return std::make_unique<SpawnManyRemote>(o.flavour, o.workers, false);
  if (w == "spawn_many_remote_busy") return std::make_unique<SpawnManyRemote>(o.flavour, o.workers, true);
  if (w == "yield_many") return std::make_unique<YieldMany>(o.flavour, o.workers);
  if (w == "chained_spawn") return std::make_unique<ChainedSpawn>(o.flavour, o.workers);
#if __has_include("rt/sync/mpsc.hpp")
  if (w == "ping_pong") return std::make_unique<PingPong>(o.flavour, o.workers);
  if (w == "ping_pong_upstream") return std::make_unique<PingPongUpstream>(o.flavour, o.workers);
#endif
#ifdef RT_HAS_IO
  if (w.starts_with("echo_")) return std::make_unique<Echo>(w, o.flavour, o.workers, o.size);
#endif
#ifdef RT_HAS_TIME
  if (w == "timers") return std::make_unique<Timers>(o.flavour, o.workers, o.size);
  if (w == "timeout_ready") return std::make_unique<TimeoutReady>(o.flavour, o.workers);
#endif
#ifdef RT_HAS_BLOCKING
  if (w == "spawn_blocking") return std::make_unique<SpawnBlocking>(o.flavour, o.workers);
#endif
  if (w.starts_with("ping_pong")) throw CannotRun("it needs rt::mpsc and rt::oneshot (chapter 03)");
  if (w.starts_with("echo_")) throw CannotRun("it needs rt::net and enable_io (chapter 09)");
  if (w == "timers" || w == "timeout_ready") throw CannotRun("it needs rt::time and enable_time (chapter 10)");
  if (w == "spawn_blocking") throw CannotRun("it needs the blocking pool, rt::spawn_blocking (chapter 11)");
  throw CannotRun("no such workload here");
}

}  // namespace

int main(int argc, char** argv) { return bench::program_main(argc, argv, BENCH_RUNTIME, make); }
