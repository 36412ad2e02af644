// The benchmark program for Asio (Debian's libasio-dev): the course's
// workloads written the way a C++ user would write them with Asio today,
// to be set beside the course's runtimes in the same run.
#include <memory>
#include <string>

#include "../program.hpp"
#include "blocking.hpp"
#include "echo.hpp"
#include "timers.hpp"
#include "workloads.hpp"

namespace {

using namespace bench;
using namespace bench::asio_side;

std::unique_ptr<Workload> make(const Options& o) {
  const std::string& w = o.workload;
  if (w == "spawn_many_local") return std::make_unique<SpawnMany>(o.flavour, o.workers, SpawnMany::From::inside);
  if (w == "spawn_many_remote_idle") {
    return std::make_unique<SpawnMany>(o.flavour, o.workers, SpawnMany::From::outside_idle);
  }
  if (w == "spawn_many_remote_busy") {
    return std::make_unique<SpawnMany>(o.flavour, o.workers, SpawnMany::From::outside_busy);
  }
  if (w == "yield_many") return std::make_unique<YieldMany>(o.flavour, o.workers);
  if (w == "ping_pong") return std::make_unique<PingPong>(o.flavour, o.workers);
  if (w == "ping_pong_upstream") return std::make_unique<PingPongUpstream>(o.flavour, o.workers);
  if (w == "chained_spawn") return std::make_unique<ChainedSpawn>(o.flavour, o.workers);
  if (w.starts_with("echo_")) return std::make_unique<Echo>(w, o.flavour, o.workers, o.size);
  if (w == "timers") return std::make_unique<Timers>(o.flavour, o.workers, o.size);
  if (w == "timeout_ready") return std::make_unique<TimeoutReady>(o.flavour, o.workers);
  if (w == "spawn_blocking") return std::make_unique<SpawnBlocking>(o.flavour, o.workers);
  throw CannotRun("no such workload here");
}

}  // namespace

int main(int argc, char** argv) { return bench::program_main(argc, argv, "asio", make); }
