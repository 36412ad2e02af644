// Chapter 01: block_on polls its own future again only when that future's
// waker was called, however many turns the spawned tasks take meanwhile.
#include "flavours.hpp"
#include "gate.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

// Takes `turns` turns, then opens the gate the root future waits on.
rt::Task<> open_after(Gate& gate, int turns) {
  for (int i = 0; i < turns; ++i) co_await rt::yield_now();
  gate.open();
}

rt::Task<> wait_for_the_gate(Gate& gate) {
  auto opener = rt::spawn(open_after(gate, 20));
  co_await gate.wait();  // 20 turns of the other task pass, not woken
  co_await opener;
}

}  // namespace

// One flavour: on a multi-thread runtime a worker may run the opener's 20
// turns before block_on first polls the gate, which is then ready at once.
TEST_CASE("block_on polls its future only when it was woken" * POINTS(2)) {
  rt_test::on_current_thread([](rt::Runtime& runtime) {
    Gate gate;
    runtime.block_on(wait_for_the_gate(gate));
    CHECK(gate.polls() == 2);  // pending once, then ready after the wake
  });
}

namespace {

rt::Task<int> finish_at_once(int value) { co_return value; }

// Spawns three tasks that wake nobody when they finish, and joins only the
// last: block_on must run all three before it has any reason to sleep.
rt::Task<int> join_the_last_of_three() {
  (void)rt::spawn(finish_at_once(1));
  (void)rt::spawn(finish_at_once(2));
  co_return co_await rt::spawn(finish_at_once(3));
}

}  // namespace

TEST_CASE("block_on runs every queued task before it sleeps" * POINTS(2)) {
  // A loop that sleeps after each task, even with more queued, has one
  // wake-up for three spawns: it runs two tasks and sleeps for good.
  rt_test::on_current_thread([](rt::Runtime& runtime) {
    CHECK(runtime.block_on(join_the_last_of_three()) == 3);
  });
}
