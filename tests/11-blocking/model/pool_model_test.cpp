// Chapter 11, under the model checker: the blocking pool's threads, its
// counts under one mutex, and its condition variable. Every schedule of a
// spawn against a thread going idle, leaving, or shutting down (with at
// most two preemptions) is run. In the model a keep-alive's timed wait
// times out only when no thread at all could run otherwise: a thread that
// spins (model::yield_now) keeps every idle thread from timing out, and a
// thread that blocks lets them.
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "blocking_model.hpp"
#include "model.hpp"

using ch11_model::Flag;
using ch11_model::Jobs;

namespace {

// Shutdown without a timeout joins every thread it started, also one that
// left before (on its keep-alive): a thread still running after it returns
// may outlive the runtime, and the process's exit.
const char* const still_runs =
    "shutdown without a timeout returned while a thread of the pool still ran: a thread that leaves "
    "must be joined (the pool keeps the last one to leave, and joins it), never detached";

}  // namespace

TEST_CASE("model: a job spawned while the pool's one thread is idle wakes that thread and runs" * POINTS(2)) {
  rt_test::explore([] {
    Jobs jobs({.thread_cap = 2});
    Flag first_ran;
    Flag second_ran;
    rt::JoinHandle<void> first = jobs.spawn([&] { first_ran.set(); });
    first_ran.wait();
    // The thread counts itself idle once the job is over. Spinning, this
    // thread keeps the idle one's keep-alive from running out.
    while (jobs.pool().num_idle_threads() == 0) model::yield_now();
    rt::JoinHandle<void> second = jobs.spawn([&] { second_ran.set(); });
    model::check(jobs.pool().num_threads() == 1,
                 "a job spawned while a thread was idle started a second thread instead of waking the idle one");
    second_ran.wait();  // a wake-up the idle thread took for a spurious one: nobody runs the job
    jobs.pool().shutdown(std::nullopt);
    model::check(jobs.pool().num_threads() == 0, "shutdown without a timeout returned before every thread left");
    model::check(model::threads_running() == 1, still_runs);
    jobs.check_ran(first);
    jobs.check_ran(second);
  });
}

TEST_CASE("model: two jobs spawned at one idle thread get two threads when the cap allows two" * POINTS(1)) {
  // The first job waits for the second: both must run at once, so the
  // second may not be handed to the idle thread the first one took.
  rt_test::explore([] {
    Jobs jobs({.thread_cap = 2});
    Flag warm;
    Flag second_ran;
    rt::JoinHandle<void> warm_up = jobs.spawn([&] { warm.set(); });
    warm.wait();
    while (jobs.pool().num_idle_threads() == 0) model::yield_now();
    Flag first_ran;
    rt::JoinHandle<void> first = jobs.spawn([&] {
      second_ran.wait();
      first_ran.set();
    });
    rt::JoinHandle<void> second = jobs.spawn([&] { second_ran.set(); });
    model::check(jobs.pool().num_threads() == 2,
                 "the second job was handed to the idle thread the first job had already taken");
    first_ran.wait();  // a shutdown sooner may cancel a job no thread has taken yet
    jobs.pool().shutdown(std::nullopt);
    jobs.check_ran(warm_up);
    jobs.check_ran(first);
    jobs.check_ran(second);
  });
}

TEST_CASE("model: a thread that left on its keep-alive is no longer counted idle and the next job runs" * POINTS(1)) {
  rt_test::explore([] {
    Jobs jobs({.thread_cap = 1});
    Flag first_ran;
    Flag second_ran;
    rt::JoinHandle<void> first = jobs.spawn([&] { first_ran.set(); });
    first_ran.wait();
    std::optional<rt::JoinHandle<void>> second;
    // Its timed waits time out only after the pool thread's, which is
    // older: time passes when every thread waits. (A pool thread that
    // never leaves times out again and again, and the checker reports
    // a livelock.)
    model::thread later([&] {
      model::mutex mutex;
      model::condition_variable never;
      std::unique_lock lock(mutex);
      for (int waits = 0; jobs.pool().num_threads() != 0; ++waits) {
        model::check(waits < 3, "an idle thread did not leave when its keep-alive ran out");
        (void)never.wait_for(lock, std::chrono::seconds(1));
      }
      model::check(jobs.pool().num_idle_threads() == 0, "a thread that left is still counted idle");
      second = jobs.spawn([&] { second_ran.set(); });
    });
    later.join();
    second_ran.wait();  // handed to a thread that left: nobody runs it
    jobs.pool().shutdown(std::nullopt);
    model::check(model::threads_running() == 1, still_runs);
    jobs.check_ran(first);
    jobs.check_ran(*second);
  });
}

TEST_CASE("model: shutdown with a timeout returns while a job runs on and leaves its thread to finish it" * POINTS(1)) {
  rt_test::explore([] {
    Jobs jobs({.thread_cap = 1});
    Flag started;
    Flag release;
    rt::JoinHandle<void> job = jobs.spawn([&] {
      started.set();
      release.wait();
    });
    started.wait();
    // The job waits for this thread: the timeout is the only way out.
    jobs.pool().shutdown(std::chrono::seconds(1));
    release.set();
    while (!job.is_finished()) model::yield_now();
    jobs.check_ran(job);
  });
}

TEST_CASE("model: shutdown cancels a job still queued for an idle thread and runs a mandatory one" * POINTS(2)) {
  // The idle thread was woken for the jobs, and shutdown came before it
  // took them: the ordinary job is cancelled (whoever awaits it hears
  // so), the mandatory one (a worker loop that owns a core) still runs.
  // Where the thread takes them first, both run.
  int schedules_cancelling = 0;
  rt_test::explore([&] {
    Jobs jobs({.thread_cap = 1});
    Flag warm;
    rt::JoinHandle<void> warm_up = jobs.spawn([&] { warm.set(); });
    warm.wait();
    while (jobs.pool().num_idle_threads() == 0) model::yield_now();
    rt::JoinHandle<void> ordinary = jobs.spawn([] {});
    rt::JoinHandle<void> mandatory = jobs.spawn([] {}, true);
    jobs.pool().shutdown(std::nullopt);
    jobs.check_ran(warm_up);
    model::check(mandatory.is_finished(), "a mandatory job queued before shutdown neither ran nor was cancelled");
    try {
      mandatory.await_resume();
    } catch (const rt::JoinError&) {
      model::check(false, "shutdown cancelled a mandatory job: it must run (it is a worker loop that owns a core)");
    }
    model::check(ordinary.is_finished(), "a job queued before shutdown neither ran nor was cancelled");
    try {
      ordinary.await_resume();
    } catch (const rt::JoinError& error) {
      if (error.is_cancelled()) ++schedules_cancelling;
    }
  });
  INFO("in no schedule was the queued job cancelled: shutdown ran it although the runtime was shutting down");
  CHECK(schedules_cancelling > 0);
}

TEST_CASE("model: a job handed to an idle thread just as its keep-alive runs out still runs" * POINTS(2)) {
  // The keep-alive may end at any step here (early_timeouts), also after
  // spawn counted on the thread and before the thread looks: a thread
  // picked by spawn must take the job, whatever its clock says.
  model::Options options;
  options.early_timeouts = true;
  rt_test::explore(
      [] {
        Jobs jobs({.thread_cap = 1});
        Flag warm;
        Flag ran;
        rt::JoinHandle<void> warm_up = jobs.spawn([&] { warm.set(); });
        warm.wait();
        while (jobs.pool().num_idle_threads() == 0 && jobs.pool().num_threads() > 0) model::yield_now();
        rt::JoinHandle<void> job = jobs.spawn([&] { ran.set(); });
        ran.wait();  // the thread left with it: nobody runs it
        jobs.pool().shutdown(std::nullopt);
        jobs.check_ran(warm_up);
        jobs.check_ran(job);
      },
      options);
}
