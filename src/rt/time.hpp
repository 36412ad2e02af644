//@ file timers..
// rt::time: sleeping, deadlines and intervals on the runtime's timer
// wheel, and a clock that tests can pause. Mirrors tokio::time. Needs a
// runtime built with enable_time() (or enable_all()).
#pragma once

#include "rt/task/task.hpp"
#include "rt/time/instant.hpp"
#include "rt/time/interval.hpp"
#include "rt/time/sleep.hpp"
#include "rt/time/timeout.hpp"

namespace rt::time {

// Stops the current runtime's clock (a current-thread runtime only): time
// then moves only by advance(), or, when the runtime has nothing else to
// do, straight to the next timer.
void pause();
// Starts the clock again.
void resume();
// `co_await rt::time::advance(d)`: moves the paused clock forward by d,
// fires the timers now due, and lets their tasks run before going on.
Task<> advance(Duration duration);

}  // namespace rt::time
