//@ file blocking..
// The blocking pool's threads, compiled once per runtime; see pool.hpp.
#include "rt/blocking/pool.hpp"

#include <pthread.h>

#include <system_error>

#include "rt/loom.hpp"
#include "rt/task/harness.hpp"

namespace rt::detail {

//@ listing pool_spawn
void BlockingPool::spawn(Header* job, bool mandatory) {
  std::unique_lock lock(mutex_);
  if (shutdown_) {
    lock.unlock();
    cancel_job({job, mandatory});
    return;
  }
  queue_.push_back({job, mandatory});
  //@ exercise blocking spawn
  if (num_idle_ > 0) {
    // An idle thread takes it: counted as busy from now on, so that the
    // next spawn does not pick the same one.
    //@ mutant blocking spawn_never_reuses: starts a new thread even when one is idle
    //@ mutant blocking spawn_keeps_idle_count: wakes an idle thread but leaves it counted idle, so the next spawn picks it again
    --num_idle_;
    //@ instead
    //@ end
    //@ mutant blocking spawn_wakes_uncounted: wakes an idle thread without counting the wake-up
    ++num_notify_;
    //@ instead
    //@ end
    // Told once the lock is free: a thread woken while it is held would
    // only go to sleep again, on the mutex.
    lock.unlock();
    condvar_.notify_one();
    return;
    //@ instead
    //@ end
  }
  //@ mutant blocking spawn_ignores_cap: starts a thread for every job that finds none idle
  if (num_threads_ < config_.thread_cap) start_thread(lock);
  //@ instead
  start_thread(lock);
  //@ end
  // At the cap: it waits for the next thread that frees up.
  //@ starter
  // TODO(exercise 1): `job` is at the back of the queue; now get a thread
  // to it, the cheapest way there is.
  // - An idle thread (num_idle_ > 0) is the cheapest: wake one. It no
  //   longer counts as idle, and it must be able to tell your wake-up from
  //   a spurious one when it wakes (num_notify_).
  // - Else start a thread (start_thread), but never beyond
  //   config_.thread_cap.
  // - Else nothing: the job waits for the next thread that frees up.
  // Hint: a thread you wake is still counted idle until it runs. What
  // does the next spawn, a moment later, conclude from that count?
  (void)num_notify_;
  throw Todo("@NN@ spawn (@FILE@)");
  //@ end
}
//@ listing-end pool_spawn

void BlockingPool::start_thread(std::unique_lock<loom::mutex>& lock) {
  std::size_t id = next_id_++;
  try {
    threads_.emplace(id, loom::thread([pool = shared_from_this(), id] {
                       // Linux keeps 15 characters of a thread's name.
                       pthread_setname_np(pthread_self(), pool->config_.thread_name.substr(0, 15).c_str());
                       pool->run(id);
                     }));
  } catch (const std::system_error&) {
    // No thread to be had: the job waits for one that frees up. With none
    // at all it never runs: it is cancelled, and spawn throws.
    if (num_threads_ > 0) return;
    Job job = queue_.back();  // the one spawn just queued
    queue_.pop_back();
    lock.unlock();
    cancel_job(job);
    throw;
  }
  ++num_threads_;
}

void BlockingPool::run(std::size_t id) {
  std::unique_lock lock(mutex_);
  for (;;) {
    // Busy: the jobs, oldest first, each run with the lock released.
    while (!queue_.empty()) {
      //@ mutant blocking run_newest_first: takes the newest job first
      Job job = queue_.front();
      queue_.pop_front();
      //@ instead
      Job job = queue_.back();
      queue_.pop_back();
      //@ end
      lock.unlock();
      run_job(job);
      lock.lock();
    }
    bool woken = wait_for_work(lock);
    // Shutting down, even if woken for a job (as Tokio's pool does): what
    // is still queued will never run. Cancel it, so that whoever awaits it
    // hears so; a mandatory job (a worker loop, which owns a core) runs.
    if (shutdown_) {
      drain(lock);
      break;
    }
    if (!woken) break;
  }
  forget_thread(id, lock);
}

void BlockingPool::drain(std::unique_lock<loom::mutex>& lock) {
  while (!queue_.empty()) {
    Job job = queue_.front();
    queue_.pop_front();
    lock.unlock();
    //@ mutant blocking drain_cancels_mandatory: cancels the mandatory jobs too, so a core handed over by block_in_place is never taken up
    //@ mutant blocking drain_runs_everything: runs every queued job, though the runtime is shutting down
    if (job.mandatory) {
      run_job(job);
    } else {
      cancel_job(job);
    }
    //@ instead
    cancel_job(job);
    //@ end
    //@ instead
    run_job(job);
    //@ end
    lock.lock();
  }
}

//@ listing wait_for_work
bool BlockingPool::wait_for_work(std::unique_lock<loom::mutex>& lock) {
  //@ exercise blocking wait_for_work
  ++num_idle_;
  while (!shutdown_) {
    bool timed_out = condvar_.wait_for(lock, config_.keep_alive) == std::cv_status::timeout;
    // Picked by spawn, even if the keep-alive ran out at the same moment:
    // spawn counted on this thread, and took it off num_idle_.
    //@ mutant blocking idle_leaves_before_notify: looks at its keep-alive before the notification, so a thread picked as its keep-alive ran out leaves with the job
    //@ instead
    if (timed_out) {
      --num_idle_;
      return false;
    }
    //@ end
    if (num_notify_ > 0) {
      --num_notify_;
      return true;
    }
    //@ mutant blocking idle_never_leaves: an idle thread stays for ever
    if (timed_out) {
      //@ mutant blocking idle_leaves_counted: a thread that leaves on its keep-alive stays counted idle
      --num_idle_;
      //@ instead
      //@ end
      return false;  // idle for keep_alive: leave
    }
    //@ instead
    (void)timed_out;
    //@ end
    // A spurious wake-up: wait again.
  }
  --num_idle_;
  return false;  // shutdown: leave
  //@ starter
  // TODO(exercise 2): this thread ran out of jobs. Count it as idle, then
  // wait on condvar_ until one of three things happens, and say whether
  // to run the queue again (true) or to leave (false):
  // - spawn picked this thread: it took it off num_idle_ and counted one
  //   wake-up in num_notify_, which this thread takes back;
  // - the thread has been idle for config_.keep_alive: it leaves, and is
  //   no longer idle;
  // - shutdown_: it leaves.
  // A wake-up that is none of these is spurious: wait again.
  // Hint: spawn may pick this thread at the very moment its keep-alive
  // runs out. Which of the two must win, and why?
  (void)lock;
  throw Todo("@NN@ wait_for_work (@FILE@)");
  //@ end
}
//@ listing-end wait_for_work

void BlockingPool::forget_thread(std::size_t id, std::unique_lock<loom::mutex>& lock) {
  auto self = threads_.find(id);
  loom::thread previous;
  if (self != threads_.end()) {  // shutdown may have taken the handles
    //@ mutant blocking leaving_thread_detached: a thread that leaves detaches itself instead of waiting in last_exiting_ to be joined, so shutdown can return while it still runs
    previous = std::exchange(last_exiting_, std::move(self->second));
    //@ instead
    self->second.detach();
    //@ end
    threads_.erase(self);
  }
  if (--num_threads_ == 0) all_left_.notify_all();
  lock.unlock();
  // The thread before this one has left its loop already: joining it
  // only frees what it used. (Tokio joins the last exiting thread too.)
  if (previous.joinable()) previous.join();
}

//@ listing pool_shutdown
void BlockingPool::shutdown(std::optional<std::chrono::nanoseconds> timeout) {
  std::unique_lock lock(mutex_);
  if (shutdown_) return;
  //@ exercise blocking shutdown
  shutdown_ = true;
  condvar_.notify_all();  // the idle threads leave, the busy ones after their job
  auto left = [this] { return num_threads_ == 0; };
  bool all_left = true;
  //@ mutant blocking shutdown_ignores_timeout: waits for every thread, whatever the timeout
  if (timeout) {
    //@ mutant blocking shutdown_timeout_claims_all_left: ignores whether the threads left in time, and joins a thread still in its job
    all_left = all_left_.wait_for(lock, *timeout, left);
    //@ instead
    all_left_.wait_for(lock, *timeout, left);
    //@ end
  } else {
    all_left_.wait(lock, left);
  }
  //@ instead
  all_left_.wait(lock, left);
  //@ end
  //@ starter
  // TODO(exercise 3): refuse new jobs (shutdown_), tell every thread
  // (the idle ones leave, the busy ones after their job: run() cancels
  // what is left in the queue), then wait on all_left_ until no thread is
  // left: for ever without a timeout, at most `timeout` with one. Set
  // all_left to whether they all left.
  // Hint: std::condition_variable has a wait and a wait_for that take a
  // predicate; which of them says whether the predicate held?
  bool all_left = false;
  (void)timeout;
  throw Todo("@NN@ shutdown (@FILE@)");
  //@ end
  std::unordered_map<std::size_t, loom::thread> threads = std::move(threads_);
  loom::thread last = std::move(last_exiting_);
  lock.unlock();
  // Those left after the timeout, and this thread if it is one of the
  // pool's (a runtime dropped inside a blocking job), run on unjoined.
  auto finish = [all_left](loom::thread& thread) {
    if (!thread.joinable()) return;
    if (all_left && thread.get_id() != loom::this_thread::get_id()) {
      thread.join();
    } else {
      thread.detach();
    }
  };
  for (auto& [id, thread] : threads) finish(thread);
  finish(last);
}
//@ listing-end pool_shutdown

std::size_t BlockingPool::num_threads() const {
  std::lock_guard lock(mutex_);
  return num_threads_;
}

std::size_t BlockingPool::num_idle_threads() const {
  std::lock_guard lock(mutex_);
  return num_idle_;
}

std::size_t BlockingPool::queue_depth() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

void BlockingPool::run_job(Job job) {
  poll(job.task);                // takes the Notified's reference
  drop_reference(job.task);      // and this one is the pool's
}

void BlockingPool::cancel_job(Job job) {
  detail::shutdown(job.task);  // takes one reference: it ends cancelled
  drop_reference(job.task);
}

}  // namespace rt::detail
