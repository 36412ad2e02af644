// Chapter 02: the join waker handed back while the task completes, replayed
// on one thread in the order that used to trip an assertion.
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

using rt::detail::Snapshot;
using rt::detail::State;
using rt::detail::TransitionToRunning;

}  // namespace

TEST_CASE("a JoinHandle that takes its waker back as the task completes sees COMPLETE" * POINTS(1)) {
  State state;  // a new task: NOTIFIED, JOIN_INTEREST, three references
  Snapshot seen{0};
  // The JoinHandle leaves a waker: JOIN_WAKER is set.
  REQUIRE(state.set_join_waker(seen));
  // It is polled again with another waker and, having seen JOIN_WAKER, is
  // about to take the field back. Meanwhile, on a worker, the task runs,
  // completes, wakes the joiner and gives the field back.
  REQUIRE(state.transition_to_running() == TransitionToRunning::Success);
  state.transition_to_complete();
  state.unset_waker_after_complete();
  // Now the JoinHandle's attempt: it must fail because the task is
  // complete (the output is ready), whatever JOIN_WAKER says.
  CHECK_FALSE(state.unset_join_waker());
  CHECK(state.load().is_complete());
}
