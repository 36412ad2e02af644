// Chapter 02: the state word's transitions, replayed one at a time on a
// bare rt::detail::State, in the orders that tell a right answer from the
// plausible wrong ones. No runtime and no thread: each check is exact.
#include <cstddef>

#include "graded.hpp"
#include "rt/task/state.hpp"

using rt::detail::State;
using rt::detail::TransitionToIdle;
using rt::detail::TransitionToNotifiedByRef;
using rt::detail::TransitionToNotifiedByVal;
using rt::detail::TransitionToRunning;

namespace {

std::size_t refs(const State& state) { return state.load().ref_count(); }

// A spawned task that has been polled once and is waiting: two references
// left (the owned list's and the JoinHandle's).
void poll_once(State& state) {
  REQUIRE(state.transition_to_running() == TransitionToRunning::Success);
  REQUIRE(state.transition_to_idle() == TransitionToIdle::Ok);
  REQUIRE(refs(state) == 2);
}

}  // namespace

TEST_CASE("a wake by reference queues an idle task once and a notified one not again" * POINTS(2)) {
  State state;
  poll_once(state);
  CHECK(state.transition_to_notified_by_ref() == TransitionToNotifiedByRef::Submit);
  CHECK(state.load().is_notified());
  CHECK(refs(state) == 3);  // the new Notified's
  CHECK(state.transition_to_notified_by_ref() == TransitionToNotifiedByRef::DoNothing);
  CHECK(refs(state) == 3);
}

TEST_CASE("wakes during a poll leave NOTIFIED and the poll's end queues the task once" * POINTS(2)) {
  State state;
  REQUIRE(state.transition_to_running() == TransitionToRunning::Success);
  REQUIRE(refs(state) == 3);  // the owned list's, the JoinHandle's, the poll's
  CHECK(state.transition_to_notified_by_ref() == TransitionToNotifiedByRef::DoNothing);
  CHECK(state.load().is_notified());  // remembered for the end of the poll
  CHECK(state.transition_to_notified_by_ref() == TransitionToNotifiedByRef::DoNothing);
  CHECK(refs(state) == 3);
  CHECK(state.transition_to_idle() == TransitionToIdle::OkNotified);
  CHECK_FALSE(state.load().is_running());
  CHECK(state.load().is_notified());
  CHECK(refs(state) == 4);  // plus the new Notified's; the caller then drops the poll's
}

TEST_CASE("a wake by value hands its reference on or gives it up" * POINTS(1)) {
  State state;
  poll_once(state);
  state.ref_inc();  // a waker
  CHECK(state.transition_to_notified_by_val() == TransitionToNotifiedByVal::Submit);
  CHECK(refs(state) == 4);  // the waker's is still there: its caller drops it after queueing
  state.ref_dec();
  state.ref_inc();  // a second waker, woken while the task is queued
  CHECK(state.transition_to_notified_by_val() == TransitionToNotifiedByVal::DoNothing);
  CHECK(refs(state) == 3);

  State running;
  REQUIRE(running.transition_to_running() == TransitionToRunning::Success);
  running.ref_inc();  // a waker, woken during the poll
  CHECK(running.transition_to_notified_by_val() == TransitionToNotifiedByVal::DoNothing);
  CHECK(running.load().is_notified());
  CHECK(refs(running) == 3);
}
