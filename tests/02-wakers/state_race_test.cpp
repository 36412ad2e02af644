// Chapter 02: transitions that race. Each is one compare-and-swap on the
// whole word, so of two racing wakes exactly one finds the task idle, and a
// wake racing with the end of a poll is seen by one side or the other,
// never by neither. The race is made to happen on one thread: a timer
// signal interrupts one transition and runs the other in its handler
// (tests/support/interrupter.hpp), thousands of times; the state word is
// evicted from the cache first, so that most interruptions land just after
// the transition has read it. One wrong round fails the test.
#include <optional>

#include "graded.hpp"
#include "interrupter.hpp"
#include "rt/task/state.hpp"

using rt::detail::State;
using rt::detail::TransitionToIdle;
using rt::detail::TransitionToNotifiedByRef;

namespace {

constexpr long kInterruptions = 1000;

}  // namespace

TEST_CASE("two racing wakes by reference of an idle task queue it exactly once" * POINTS(2)) {
  std::optional<State> state;
  TransitionToNotifiedByRef theirs{};
  Interrupter interrupter([&] { theirs = state->transition_to_notified_by_ref(); }, kInterruptions);
  long wrong = 0;
  while (interrupter.more()) {
    state.emplace();
    state->transition_to_running();
    state->transition_to_idle();  // polled once: idle, two references
    TransitionToNotifiedByRef mine{};
    interrupter.run([&] { mine = state->transition_to_notified_by_ref(); }, &*state);
    int submits = (mine == TransitionToNotifiedByRef::Submit) + (theirs == TransitionToNotifiedByRef::Submit);
    if (submits != 1 || state->load().ref_count() != 3) ++wrong;
  }
  CHECK(interrupter.complete());
  CHECK(wrong == 0);
}

TEST_CASE("a wake by reference racing with the end of a poll is never lost" * POINTS(2)) {
  std::optional<State> state;
  TransitionToIdle theirs{};
  Interrupter interrupter([&] { theirs = state->transition_to_idle(); }, kInterruptions);
  long lost = 0, doubled = 0;
  while (interrupter.more()) {
    state.emplace();
    state->transition_to_running();  // being polled
    TransitionToNotifiedByRef mine{};
    interrupter.run([&] { mine = state->transition_to_notified_by_ref(); }, &*state);
    // Either the wake came first (the poll's end re-queues the task) or
    // the poll ended first (the wake queues it): exactly one of the two.
    bool requeued = theirs == TransitionToIdle::OkNotified;
    bool submitted = mine == TransitionToNotifiedByRef::Submit;
    if (!requeued && !submitted) ++lost;
    if (requeued && submitted) ++doubled;
  }
  CHECK(interrupter.complete());
  CHECK(lost == 0);
  CHECK(doubled == 0);
}
