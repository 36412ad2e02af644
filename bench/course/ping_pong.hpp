// ping_pong: two tasks and two bounded channels of capacity 1; one sends, the
// other sends it back, 100,000 times. The cost of a wake-up between two
// tasks, through the runtime's own channel (rt::mpsc, from chapter 03).
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

#include "../workloads.hpp"
#include "runtime.hpp"

namespace bench::course {

#if __has_include("rt/sync/mpsc.hpp")

inline rt::Task<> ping(rt::mpsc::Sender<long> tx, rt::mpsc::Receiver<long> rx, long round_trips) {
  for (long i = 0; i < round_trips; ++i) {
    co_await tx.send(i);
    std::optional<long> back = co_await rx.recv();
    if (back != i) throw std::logic_error("ping_pong lost a message");
  }
  { auto closed = std::move(tx); }  // the echo's recv() now ends
}

inline rt::Task<> echo(rt::mpsc::Receiver<long> rx, rt::mpsc::Sender<long> tx) {
  while (std::optional<long> n = co_await rx.recv()) co_await tx.send(*n);
}

inline rt::Task<> play_ping_pong(long round_trips) {
  auto [ping_tx, ping_rx] = rt::mpsc::channel<long>(1);
  auto [pong_tx, pong_rx] = rt::mpsc::channel<long>(1);
  auto echoing = rt::spawn(echo(std::move(ping_rx), std::move(pong_tx)));
  auto pinging = rt::spawn(ping(std::move(ping_tx), std::move(pong_rx), round_trips));
  co_await pinging;
  co_await echoing;
}

class PingPong : public Workload {
 public:
  PingPong(Flavour flavour, int workers) : runtime_(make_runtime(flavour, workers)) {}
  void iteration() override { runtime_->block_on(play_ping_pong(ping_pong_round_trips)); }

 private:
  std::unique_ptr<rt::Runtime> runtime_;
};

#endif

}  // namespace bench::course
