// ping_pong_upstream: Tokio's own `ping_pong` benchmark. 1,000 times, a task
// spawns a pair: the first sends over a oneshot, the second answers over
// another, and the first waits for the answer. Spawns, oneshots and
// cross-task wake-ups, mixed (rt::oneshot, from chapter 03).
#pragma once

#include <memory>
#include <utility>

#include "../workloads.hpp"
#include "latch.hpp"
#include "runtime.hpp"

namespace bench::course {

#if __has_include("rt/sync/mpsc.hpp")

inline rt::Task<> answer(rt::oneshot::Receiver<int> question, rt::oneshot::Sender<int> reply) {
  (void)co_await question;
  (void)reply.send(0);
}

inline rt::Task<> ask(Latch& done) {
  auto [question_tx, question_rx] = rt::oneshot::channel<int>();
  auto [reply_tx, reply_rx] = rt::oneshot::channel<int>();
  (void)rt::spawn(answer(std::move(question_rx), std::move(reply_tx)));  // detached
  (void)question_tx.send(0);
  (void)co_await reply_rx;
  done.count_down();
}

inline rt::Task<> spawn_pairs(long pairs, Latch& done) {
  for (long i = 0; i < pairs; ++i) (void)rt::spawn(ask(done));  // detached
  co_return;
}

inline rt::Task<> play_upstream(long pairs, Latch& done) {
  (void)rt::spawn(spawn_pairs(pairs, done));
  co_await done.wait();
}

class PingPongUpstream : public Workload {
 public:
  PingPongUpstream(Flavour flavour, int workers) : runtime_(make_runtime(flavour, workers)) {}
  void iteration() override {
    Latch done(upstream_pairs);
    runtime_->block_on(play_upstream(upstream_pairs, done));
  }

 private:
  std::unique_ptr<rt::Runtime> runtime_;
};

#endif

}  // namespace bench::course
