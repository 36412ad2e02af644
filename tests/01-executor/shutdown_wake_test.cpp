// Chapter 01: a wake from another thread that meets the runtime's shutdown
// leaks nothing.
//
// A task has finished and its JoinHandle is gone; one reference is left,
// the waker another thread still holds (the owner of a timer, a socket).
// That thread wakes the task just as the runtime shuts down. The wake must
// reach the run queue before the shutdown closes it (and be handed over
// with it) or be refused: queued in a closed queue that nobody empties, the
// task and the runtime's shared state would keep each other alive for ever.
//
// On chapter 01's runtime the test holds the wake at the door of the run
// queue, just before push locks the queue's mutex
// (rt::detail::before_run_queue_locks), shuts the runtime down, then lets
// the wake in: a push that read `closed_` before taking the mutex still
// believes the queue open. Later runtimes have no such hook; there the
// wake comes right after the shutdown.
#include <memory>
#include <optional>
#include <semaphore>
#include <thread>

#include "flavours.hpp"
#include "graded.hpp"
#include "keep_waker.hpp"
#include "rt/rt.hpp"

namespace {

// The handshake between the waking thread and the test's thread.
struct Door {
  std::binary_semaphore reached{0};   // the wake is at the queue's door
  std::binary_semaphore shut_down{0};  // the runtime is gone: come in
  bool held = false;                   // the wake did stop at the door
};
Door* door = nullptr;  // set before the waking thread starts, cleared after it is joined

#ifdef RT_HAS_RUN_QUEUE_HOOK
// Stops the wake at the door until the runtime has shut down.
void hold_at_the_door() {
  rt::detail::before_run_queue_locks = nullptr;  // once: not for whatever locks after
  door->held = true;
  door->reached.release();
  door->shut_down.acquire();
}
#endif

// The thread that keeps the task's last reference and wakes it by value.
void wake_at_shutdown(rt::Waker& kept) {
#ifdef RT_HAS_RUN_QUEUE_HOOK
  rt::detail::before_run_queue_locks = &hold_at_the_door;
  try {
    kept.wake();
  } catch (...) {
    // a wake that throws fails the test below: the task is never freed
  }
  if (!door->held) {  // the wake never reached the queue: let the test go on, and fail
    rt::detail::before_run_queue_locks = nullptr;
    door->reached.release();
    door->shut_down.acquire();
  }
#else
  door->reached.release();
  door->shut_down.acquire();
  door->held = true;
  kept.wake();
#endif
}

rt::Task<> finish_and_forget(std::shared_ptr<int> token, rt::Waker& kept) {
  auto handle = rt::spawn([token, &kept]() -> rt::Task<std::shared_ptr<int>> {
    co_await KeepWaker(kept);
    co_return token;  // the output is a copy of the token, kept in the task
  });
  while (!handle.is_finished()) co_await rt::yield_now();
}  // the JoinHandle goes without taking the output

}  // namespace

TEST_CASE("a wake from another thread as the runtime shuts down leaks nothing" * POINTS(2)) {
  std::optional<Door> state;
  std::optional<std::thread> waker;
  std::shared_ptr<int> token;
  rt::Waker kept;
  rt_test::on_each_runtime(
      [&](rt::Runtime& runtime) {
        state.emplace();
        door = &*state;
        token = std::make_shared<int>(7);
        runtime.block_on(finish_and_forget(token, kept));
        REQUIRE(kept);  // the task's last reference, now the other thread's
        waker.emplace(wake_at_shutdown, std::ref(kept));
        state->reached.acquire();  // the wake waits at the door: shut down
      },
      [&] {  // the runtime is gone
        state->shut_down.release();
        waker->join();
        waker.reset();
        CHECK(state->held);  // the wake did meet the shutdown
        CHECK_FALSE(kept);
        // Nothing but the test holds the token: the task's frame, the
        // lambda's captures and the task's output are all destroyed.
        CHECK(token.use_count() == 1);
        door = nullptr;
        state.reset();
      });
}
