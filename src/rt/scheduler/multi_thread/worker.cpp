//@ file threads..
// The multi-thread scheduler's workers, compiled once per runtime; see
// worker.hpp.
#include "rt/scheduler/multi_thread/worker.hpp"

//@ chapters ..timers
#include <pthread.h>
//@ end

//@ chapters blocking..
#include "rt/blocking/spawn_blocking.hpp"
//@ end
#include "rt/runtime/context.hpp"
#include "rt/runtime/park_thread.hpp"
#include "rt/task/harness.hpp"
//@ chapters coop..
#include "rt/task/coop.hpp"
//@ end

namespace rt::detail {

MultiThread::MultiThread(MultiThreadConfig config)
    : config_(std::move(config)),
      idle_(config_.workers),
      workers_(config_.workers),
//@ chapters ..timers
      started_(static_cast<std::ptrdiff_t>(config_.workers)) {
//@ else
      started_(static_cast<std::ptrdiff_t>(config_.workers)),
      cores_done_(static_cast<std::ptrdiff_t>(config_.workers)) {
//@ end
//@ chapters reactor..
  driver_ = make_driver(config_.driver);
//@ end
//@ chapters local-queues..
  for (Worker& worker : workers_) {
    if (config_.global_queue_interval) worker.global_queue_interval = *config_.global_queue_interval;
//@ end
//@ chapters lifo-slot..
    worker.lifo_enabled = !config_.disable_lifo_slot;
//@ end
//@ chapters reactor..
    // A worker that parks while the driver is free sleeps in it.
    worker.parker.set_driver(driver_.get());
//@ end
//@ chapters local-queues..
  }
//@ end
}

void MultiThread::start() {
//@ chapters ..timers
  threads_.reserve(workers_.size());
  for (std::size_t index = 0; index < workers_.size(); ++index) {
    threads_.emplace_back([self = shared_from_this(), index] {
      // Linux keeps 15 characters of a thread's name.
      pthread_setname_np(pthread_self(), self->config_.thread_name.substr(0, 15).c_str());
      self->run(index);
    });
  }
//@ else
  // Each worker's loop is a job of the blocking pool, as in Tokio, so
  // that block_in_place can hand a core to a new thread the same way.
  for (std::size_t index = 0; index < workers_.size(); ++index) {
    auto loop = [self = shared_from_this(), index] {
      self->started_.count_down();
      self->run(index);
    };
    // Its JoinHandle goes at once: the loop runs until shutdown.
    (void)detail::spawn_blocking_on(shared_from_this(), std::move(loop), /*mandatory=*/true);
  }
//@ end
  // A runtime that build() returns has all its workers: none starts
  // later, in the middle of what the caller measures or expects.
  started_.wait();
}

std::uint64_t MultiThread::worker_park_count(std::size_t worker) const {
  return workers_.at(worker).parks.load();
}

std::uint64_t MultiThread::worker_unpark_count(std::size_t worker) const {
  return workers_.at(worker).unparks.load(std::memory_order_relaxed);
}

//@ chapters local-queues..
std::size_t MultiThread::worker_local_queue_depth(std::size_t worker) const {
  return workers_.at(worker).run_queue.len();
}

std::uint64_t MultiThread::worker_local_schedule_count(std::size_t worker) const {
  return workers_.at(worker).local_schedules.load();
}

std::uint64_t MultiThread::worker_overflow_count(std::size_t worker) const {
  return workers_.at(worker).overflows.load();
}

std::uint64_t MultiThread::worker_poll_count(std::size_t worker) const {
  return workers_.at(worker).polls.load();
}

//@ end
//@ chapters stealing..
std::uint64_t MultiThread::worker_steal_count(std::size_t worker) const {
  return workers_.at(worker).steals.load();
}

std::uint64_t MultiThread::worker_steal_operations(std::size_t worker) const {
  return workers_.at(worker).steal_operations.load();
}

//@ end
//@ listing schedule
void MultiThread::schedule(Header* task) {
//@ chapters local-queues..
  if (std::optional<std::size_t> index = current_worker()) {
    schedule_local(*index, task);
    return;
  }
//@ end
//@ chapters capstone..
  instruments().count_remote_schedule();
//@ end
  if (!inject_.push(task)) {  // shut down: drop the Notified
    drop_reference(task);
    return;
  }
  notify_parked();
}

void MultiThread::notify_parked() {
  if (std::optional<std::size_t> worker = idle_.worker_to_notify()) unpark(*worker);
}

void MultiThread::unpark(std::size_t index) {
  workers_[index].unparks.fetch_add(1, std::memory_order_relaxed);  // a statistic
  workers_[index].parker.unpark();
}
//@ listing-end schedule
//@ chapters blocking..

void MultiThread::set_current_worker(std::optional<std::size_t> index) {
  current_worker_here_ = index ? CurrentWorker{this, *index} : CurrentWorker{};
}
//@ end
//@ chapters local-queues..

//@ listing schedule_local
//@ end
//@ chapters local-queues..stealing
void MultiThread::schedule_local(std::size_t index, Header* task) {
  Worker& worker = workers_[index];
  worker.local_schedules.add();  // a statistic
  Pushed where = push_to_ring(worker, task);
//@ end
//@ chapters local-queues
  // Only this worker runs what is in its ring; what went to the global
  // queue, any worker can.
  //@ mutant local-queues overflow_wakes_nobody: wakes no sleeping worker for the tasks an overflow moved to the global queue
  if (where != Pushed::local) notify_parked();
  //@ instead
  (void)where;
  //@ end
//@ end
//@ chapters stealing
  // Wherever it went, an idle worker can now take it, from the global
  // queue or by stealing. (Cheap when nobody sleeps or somebody searches:
  // worker_to_notify reads one atomic word.)
  //@ mutant stealing ring_push_wakes_nobody: keeps chapter 05's rule, waking a sleeper only for an overflow, so a task in a busy worker's ring waits for it
  (void)where;
  notify_parked();
  //@ instead
  if (where != Pushed::local) notify_parked();
  //@ end
//@ end
//@ chapters local-queues..stealing
}
//@ end
//@ chapters lifo-slot..
void MultiThread::schedule_local(std::size_t index, Header* task, bool is_yield) {
  Worker& worker = workers_[index];
  worker.local_schedules.add();  // a statistic
  //@ exercise lifo-slot lifo_schedule
  bool others_can_take_it = true;
  //@ mutant lifo-slot lifo_takes_yields: a task that yields goes into the slot too
  if (is_yield || !worker.lifo_enabled) {
  //@ instead
  if (!worker.lifo_enabled) {
  //@ end
    // A yield asks to let the others run first: the back of the ring.
    push_to_ring(worker, task);
  } else {
    // It runs next, here, while what woke it is still in this core's cache.
    Header* displaced = std::exchange(worker.lifo_slot, task);
    //@ mutant lifo-slot lifo_loses_displaced: drops the task the new one displaces from the slot
    if (displaced) push_to_ring(worker, displaced);
    //@ instead
    //@ end
    // Only the slot changed: nothing another worker could take.
    //@ mutant lifo-slot lifo_never_notifies: never wakes an idle worker for the task pushed out of the slot
    others_can_take_it = displaced != nullptr;
    //@ instead
    others_can_take_it = false;
    //@ end
  }
  //@ mutant lifo-slot lifo_slot_notifies: wakes an idle worker even when only the slot changed
  if (others_can_take_it) notify_parked();
  //@ instead
  (void)others_can_take_it;
  notify_parked();
  //@ end
  //@ starter
  // TODO: queue `task`, woken or spawned on worker `index`'s own thread:
  //  - into the LIFO slot (worker.lifo_slot), to run right after the task
  //    being polled; a task already in the slot moves to the back of the
  //    ring (push_to_ring);
  //  - but to the back of the ring when the task yields (is_yield), or
  //    while the slot is off (worker.lifo_enabled false);
  //  - then wake an idle worker (notify_parked()) if, and only if,
  //    something went into the ring, where other workers can steal it.
  // Hint: a task that yields asked to let the others run: what would the
  // slot do to that promise?
  (void)worker;
  (void)task;
  (void)is_yield;
  throw Todo("@NN@ lifo_schedule (@FILE@)");
  //@ end
}

//@ end
//@ chapters lifo-slot
void MultiThread::yield_now(Header* task) {
  if (std::optional<std::size_t> index = current_worker()) {
    schedule_local(*index, task, /*is_yield=*/true);
    return;
  }
  schedule(task);  // not on one of this runtime's workers
}
//@ end
//@ chapters coop..
void MultiThread::yield_now(Header* task) {
  if (std::optional<std::size_t> index = current_worker()) {
    // Not queued yet: it runs once this worker has nothing else to do, or
    // at its next maintenance (wake_deferred). Then the idle workers hear
    // of the whole batch once, instead of once for every yield.
    workers_[*index].deferred.push_back(task);
    return;
  }
  schedule(task);  // not on one of this runtime's workers
}

void MultiThread::wake_deferred(Worker& worker) {
  for (Header* task : worker.deferred) {
    worker.local_schedules.add();  // a statistic
    push_to_ring(worker, task);
  }
  worker.deferred.clear();
  // More than this worker's own next task: another worker could help.
  // (A searcher is to find it already.)
  if (!worker.is_searching && worker.run_queue.len() > 1) notify_parked();
}
//@ end
//@ chapters local-queues..
//@ listing-end schedule_local

Pushed MultiThread::push_to_ring(Worker& worker, Header* task) {
  Pushed where = worker.run_queue.push_back_or_overflow(task, inject_);
  if (where == Pushed::overflow) worker.overflows.add();  // a statistic
  return where;
}

Header* MultiThread::next_local_task(Worker& worker) {
//@ end
//@ chapters lifo-slot..
  if (Header* task = std::exchange(worker.lifo_slot, nullptr)) return task;
//@ end
//@ chapters local-queues..
  return worker.run_queue.pop();
}
//@ end

//@ listing run
void MultiThread::run(std::size_t index) {
  // This thread spawns onto this runtime, and may not block_on.
  SetCurrentGuard current(shared_from_this());
  EnterRuntimeGuard entered;
//@ chapters threads
  started_.count_down();
  for (;;) {
    if (Header* task = inject_.pop()) {
      poll(task);  // the Notified's reference goes with it
      continue;
    }
    if (inject_.is_closed()) return;  // shut down
    park(index);
  }
//@ end
//@ chapters local-queues..
  current_worker_here_ = {this, index};
  Worker& worker = workers_[index];
//@ end
//@ chapters local-queues..timers
  started_.count_down();
//@ end
//@ chapters local-queues..
  worker.stats.start_batch(Stats::Clock::now());
  for (;;) {
    ++worker.tick;
    if (worker.tick % config_.event_interval == 0 && !maintenance(worker)) break;
    if (Header* task = next_task(index)) {
      run_task(worker, task);
//@ end
//@ chapters blocking..
      // block_in_place gave the core away: another thread runs this loop now.
      if (!current_worker()) return;
//@ end
//@ chapters local-queues..
      continue;
    }
    worker.stats.end_batch(Stats::Clock::now());
//@ end
//@ chapters capstone..
    std::uint64_t stolen_before = worker.steals.load();
//@ end
//@ chapters stealing..
    if (Header* task = steal_work(index)) {
//@ end
//@ chapters capstone..
      instruments().record_steal(index, worker.steals.load() - stolen_before);  // 0: from the global queue
//@ end
//@ chapters stealing..
      worker.stats.start_batch(Stats::Clock::now());
      run_task(worker, task);
//@ end
//@ chapters blocking..
      if (!current_worker()) return;
//@ end
//@ chapters stealing..
      continue;
    }
//@ end
//@ chapters local-queues..
    if (inject_.is_closed()) break;  // shut down
//@ end
//@ chapters coop..
    if (!worker.deferred.empty()) {  // only the tasks that yielded are left
      wake_deferred(worker);
      worker.stats.start_batch(Stats::Clock::now());
      continue;
    }
//@ end
//@ chapters local-queues..
    park(index);
    worker.stats.start_batch(Stats::Clock::now());
  }
  current_worker_here_ = {};
//@ end
//@ chapters blocking..
  cores_done_.count_down();
//@ end
}
//@ listing-end run
//@ chapters local-queues..

//@ listing next_task
Header* MultiThread::next_task(std::size_t index) {
  Worker& worker = workers_[index];
  //@ exercise local-queues next_task
  if (worker.tick % worker.global_queue_interval == 0) {
    // Now and then the global queue comes first: else a task waiting
    // there would wait for as long as this worker's tasks keep spawning
    // and waking each other.
    //@ mutant local-queues next_task_never_tunes: never tunes the interval, which stays at 61 whatever the polls take
    tune_global_queue_interval(worker);
    //@ instead
    //@ end
    //@ mutant local-queues next_task_never_fair: never looks at the global queue first
    if (Header* task = inject_.pop()) return task;
    //@ instead
    //@ end
    return next_local_task(worker);
  }
  if (Header* task = next_local_task(worker)) return task;
  return next_remote_batch(worker);
  //@ starter
  // TODO: return worker `index`'s next task, or nullptr when it has none:
  //  - normally its own tasks first (next_local_task(worker)), and, when
  //    it has none, a batch from the global queue (next_remote_batch);
  //  - but every worker.global_queue_interval ticks (worker.tick counts
  //    them), the global queue first (inject_.pop()), then its own; and
  //    call tune_global_queue_interval(worker) at that moment.
  // Hint: what happens to a task in the global queue while a worker's
  // tasks keep waking each other, if the ring always comes first?
  (void)worker;
  throw Todo("@NN@ next_task (@FILE@)");
  //@ end
}
//@ listing-end next_task

Header* MultiThread::next_remote_batch(Worker& worker) {
  if (inject_.is_empty()) return nullptr;
  // A fair share of the global queue, and at most half a ring: the rest
  // is for the other workers. One lock for the whole batch.
  std::size_t room = std::min<std::size_t>(worker.run_queue.remaining_slots(),
                                           LocalQueue<>::capacity / 2);
  std::size_t share = inject_.len() / workers_.size() + 1;
  Header* first = inject_.pop_n(std::max<std::size_t>(1, std::min(share, room)));
  if (!first) return nullptr;
  for (Header* task = first->queue_next; task;) {
    Header* next = task->queue_next;
    worker.run_queue.push_back_or_overflow(task, inject_);  // fits: the room was counted
    task = next;
  }
  first->queue_next = nullptr;
  return first;
}

void MultiThread::run_task(Worker& worker, Header* task) {
//@ end
//@ chapters stealing..
  transition_from_searching(worker);
//@ end
//@ chapters coop..
  // One budget for the task and for the LIFO polls after it: a pair that
  // wakes each other through the slot yields as one task would.
  coop::detail::BudgetGuard budget;
//@ end
//@ chapters local-queues..
  poll_counted(worker, task);
//@ end
//@ chapters blocking..
  if (!current_worker()) return;  // the core went with block_in_place
//@ end
//@ chapters lifo-slot..
  run_lifo_slot(worker);
//@ end
//@ chapters local-queues..
}

void MultiThread::poll_counted(Worker& worker, Header* task) {
  worker.stats.start_poll();
  worker.polls.add();  // a statistic
//@ end
//@ chapters capstone..
  PollTimer timer(instruments(), static_cast<std::size_t>(&worker - workers_.data()), task);
//@ end
//@ chapters local-queues..
  poll(task);  // the Notified's reference goes with it
}
//@ end
//@ chapters local-queues..

//@ listing maintenance
bool MultiThread::maintenance(Worker& worker) {
  // A batch ends here too, so that a worker that never runs dry still
  // measures its polls.
  Stats::Clock::time_point now = Stats::Clock::now();
  worker.stats.end_batch(now);
  worker.stats.start_batch(now);
//@ end
//@ chapters reactor..
  // A worker that never runs dry still hears of I/O now and then: what is
  // ready now, if nobody else is in the driver. The tasks it wakes are
  // queued here, on this worker.
  if (driver_) driver_->poll();
//@ end
//@ chapters coop..
  // Tasks that yielded wait no longer than this, even on a busy worker.
  //@ mutant coop maintenance_keeps_yielders: leaves the tasks that yielded waiting until the worker runs dry
  wake_deferred(worker);
  //@ instead
  //@ end
//@ end
//@ chapters local-queues..
  return !inject_.is_closed();
}
//@ listing-end maintenance

void MultiThread::tune_global_queue_interval(Worker& worker) {
  if (config_.global_queue_interval) return;  // fixed by the builder
  std::uint32_t next = worker.stats.tuned_global_queue_interval();
  std::uint32_t now = worker.global_queue_interval;
  // Small changes are noise: keep the interval steady.
  if ((next > now ? next - now : now - next) > 2) worker.global_queue_interval = next;
}
//@ end
//@ chapters stealing..

//@ listing steal_work
Header* MultiThread::steal_work(std::size_t index) {
  Worker& worker = workers_[index];
  //@ exercise stealing steal_work
  // Enough workers search already: leave the work to them.
  //@ mutant stealing steal_work_ignores_refusal: asks to search, then steals whatever the answer
  if (!transition_to_searching(worker)) return nullptr;
  //@ instead
  transition_to_searching(worker);
  //@ end
  std::size_t count = workers_.size();
  //@ mutant stealing steal_work_fixed_start: always starts at the next worker, so that every searcher tries the same rings first
  std::size_t start = worker.rand.fastrand_n(static_cast<std::uint32_t>(count));
  //@ instead
  std::size_t start = index + 1;
  //@ end
  //@ mutant stealing steal_work_never_steals: looks at the global queue only, never at the other workers' rings
  //@ mutant stealing steal_work_skips_one: starts one past its random pick and stops after count - 1, so the picked worker is never tried
  for (std::size_t i = 0; i < count; ++i) {
  //@ instead
  for (std::size_t i = 1; i < count; ++i) {
  //@ end
    std::size_t victim = (start + i) % count;
    if (victim == index) continue;  // its own ring is empty
    std::uint32_t stolen = 0;
    if (Header* task = workers_[victim].run_queue.steal_into(worker.run_queue, stolen)) {
      //@ mutant stealing steal_counts_operations: counts a steal as one stolen task, whatever it took
      worker.steals.add(stolen);  // statistics
      //@ instead
      worker.steals.add(1);
      (void)stolen;
      //@ end
      worker.steal_operations.add();
      return task;
    }
  }
  //@ instead
  (void)start;
  //@ end
  // Nothing to steal: one task from the global queue, if any.
  return inject_.pop();
  //@ starter
  // TODO: worker `index` has no work of its own. Find some, or return
  // nullptr:
  //  - first become a searcher (transition_to_searching(worker)); if that
  //    is refused, enough workers search already: return nullptr;
  //  - try to steal (workers_[victim].run_queue.steal_into) from every
  //    other worker once, starting at a random one
  //    (worker.rand.fastrand_n(count)); count what a steal took in
  //    worker.steals and worker.steal_operations;
  //  - with nothing stolen, take one task from the global queue.
  // Hint: why a random first victim, and not worker 0, or the next one?
  (void)worker;
  throw Todo("@NN@ steal_work (@FILE@)");
  //@ end
}
//@ listing-end steal_work

bool MultiThread::transition_to_searching(Worker& worker) {
  if (!worker.is_searching) worker.is_searching = idle_.transition_worker_to_searching();
  return worker.is_searching;
}

void MultiThread::transition_from_searching(Worker& worker) {
  if (!worker.is_searching) return;
  worker.is_searching = false;
  // The last searcher found work, and where there was some there may be
  // more: another worker takes up the search.
  if (idle_.transition_worker_from_searching()) notify_parked();
}

bool MultiThread::transition_from_parked(std::size_t index) {
//@ end
//@ chapters reactor..
  // Asleep in the driver, it queued the tasks its events woke on itself:
  // it runs them, whether or not a notifier woke it.
  Worker& worker = workers_[index];
  if (has_own_tasks(worker)) {
    // Unlisted by itself, it is awake and not searching; a notifier that
    // took it off the list counted it as searching.
    worker.is_searching = !idle_.unpark_worker_by_id(index);
    // More than it can run next: another worker could help (Tokio's
    // should_notify_others).
    if (!worker.is_searching && worker.run_queue.len() + (worker.lifo_slot ? 1 : 0) > 1) notify_parked();
    return true;
  }
//@ end
//@ chapters stealing..
  // Still listed as asleep: nobody woke it for work (a spurious wake-up).
  if (idle_.is_parked(index)) return false;
  // Woken by a notifier, which counted it as searching.
  workers_[index].is_searching = true;
  return true;
}

void MultiThread::notify_if_work_pending() {
  for (Worker& worker : workers_) {
    if (!worker.run_queue.is_empty()) {
      notify_parked();
      return;
    }
  }
  if (!inject_.is_empty()) notify_parked();
}
//@ end

//@ listing park
//@ chapters threads..local-queues
void MultiThread::park(std::size_t index) {
  //@ exercise threads park
  //@ mutant threads park_look_before_listing: looks at the queue, then lists itself asleep
  idle_.transition_worker_to_parked(index);
  // Listed first, looked again second: a task queued before the listing
  // found no sleeper to wake, so this look is what finds it.
  //@ mutant threads park_no_second_look: lists itself asleep and parks without looking again
  if (work_pending(index)) {
    // If a notifier took us off the list meanwhile, its unpark leaves a
    // token: the next park returns at once, and the loop looks again.
    //@ mutant threads park_stays_listed: finds work on its last look but stays listed asleep, so the idle count says it sleeps while it runs
    idle_.unpark_worker_by_id(index);
    //@ instead
    //@ end
    return;
  }
  //@ instead
  if (inject_.is_closed()) return;  // (only shutdown is looked for)
  //@ end
  //@ instead
  if (work_pending(index)) return;
  idle_.transition_worker_to_parked(index);
  //@ end
  workers_[index].parks.add();  // a statistic
  workers_[index].parker.park();
  //@ starter
  // TODO: put worker `index` to sleep until there may be work, without
  // ever sleeping through a task queued meanwhile:
  //  - list it as a sleeper (idle_.transition_worker_to_parked), so that
  //    whoever queues a task next wakes it;
  //  - then look again (work_pending(index): work queued, or shut
  //    down): if so, unlist it (idle_.unpark_worker_by_id) and return;
  //  - else count the park (workers_[index].parks) and sleep on
  //    workers_[index].parker.
  // Hint: why list first and look second? Think of a task pushed between
  // the run loop's empty pop and this call, when nobody was listed.
  (void)index;
  throw Todo("@NN@ park (@FILE@)");
  //@ end
}
//@ end
//@ chapters stealing..
void MultiThread::park(std::size_t index) {
  Worker& worker = workers_[index];
  if (has_own_tasks(worker)) return;  // queued by its own thread meanwhile
  // Listed first, looked again second, as in chapter 04; but only the
  // last searcher looks, at every queue: while anyone searched, a task
  // queued woke nobody, since the searchers were to find it.
  bool was_last_searcher = idle_.transition_worker_to_parked(index, worker.is_searching);
  worker.is_searching = false;
//@ end
//@ chapters lifo-slot..
  // Nobody steals from the slot: a task its own thread put there as it
  // went to sleep moves to the ring, where others can take it.
  //@ mutant lifo-slot lifo_stranded_by_park: parks with a task in the slot
  if (Header* task = std::exchange(worker.lifo_slot, nullptr)) {
    push_to_ring(worker, task);
    notify_parked();
  }
  //@ instead
  //@ end
//@ end
//@ chapters stealing..
  //@ mutant stealing park_no_last_look: the last searcher parks without looking at the queues again
  if (was_last_searcher) notify_if_work_pending();
  //@ instead
  (void)was_last_searcher;
  //@ end
  for (;;) {
    worker.parks.add();  // a statistic
//@ end
//@ chapters capstone..
    ParkTimer timer(instruments(), index);
//@ end
//@ chapters stealing..
    worker.parker.park();
    if (inject_.is_closed() || transition_from_parked(index)) return;
  }
}

bool MultiThread::has_own_tasks(const Worker& worker) const {
//@ end
//@ chapters lifo-slot..
  if (worker.lifo_slot) return true;
//@ end
//@ chapters stealing..
  return !worker.run_queue.is_empty();
}
//@ end
//@ listing-end park
//@ chapters threads..local-queues

bool MultiThread::work_pending(std::size_t index) const {
//@ end
//@ chapters local-queues
  // Its own thread may have queued a task in its ring as it went to sleep.
  //@ mutant local-queues last_look_skips_own_ring: looks only at the global queue before sleeping, not at its own ring
  if (!workers_[index].run_queue.is_empty()) return true;
  //@ instead
  //@ end
//@ end
//@ chapters threads
  (void)index;
//@ end
//@ chapters threads..local-queues
  return !inject_.is_empty() || inject_.is_closed();
}
//@ end

//@ listing block_on_multi_thread
void MultiThread::block_on(Poller& root) {
  // The caller's thread only polls its own future; the workers run tasks.
  ParkThread thread;
  Context cx(thread.waker());
  for (;;) {
//@ chapters ..lifo-slot
    if (thread.take_woken() && root.poll(cx)) return;
//@ else
    //@ mutant coop multi_thread_root_unbudgeted: polls block_on's own future without a budget
    if (thread.take_woken() && coop::detail::with_budget([&] { return root.poll(cx); })) return;
    //@ instead
    if (thread.take_woken() && root.poll(cx)) return;
    //@ end
//@ end
    thread.park();
  }
}
//@ listing-end block_on_multi_thread

//@ listing multi_thread_shutdown
void MultiThread::shutdown() {
  //@ exercise threads shutdown
  // 1. Close the queue: every worker leaves its loop once it sees it
  //    closed, and every later wake drops its Notified.
  Header* queued = inject_.close();
  // 2. Wake every worker, so that the parked ones see it too, then wait
  //    for each to finish the poll it is in.
  idle_.take_all();
  //@ mutant threads shutdown_wakes_nobody: joins the workers without waking the parked ones
  for (Worker& worker : workers_) worker.parker.unpark();
  //@ instead
  //@ end
//@ chapters ..timers
  for (std::thread& thread : threads_) thread.join();
//@ else
  // The loops run on the blocking pool's threads, which the Runtime waits
  // for later: here, only until every core's loop has ended.
  cores_done_.wait();
//@ end
  // 3. No task runs any more: cancel every one left, and drop the
  //    Notifieds that were queued.
  //@ mutant threads shutdown_cancels_nothing: leaves the waiting tasks alive
  cancel_all_tasks();
  //@ instead
  owned_.close();
  //@ end
  //@ mutant threads shutdown_leaks_queued: cancels every task but never gives up the references of the Notifieds left queued, so those tasks are never freed
  while (queued) {
    Header* next = queued->queue_next;
    drop_reference(queued);
    queued = next;
  }
  //@ instead
  (void)queued;
  //@ end
//@ chapters local-queues..
  // And those in the workers' rings, now that their owners are gone.
  for (Worker& worker : workers_) {
    //@ mutant local-queues shutdown_leaks_rings: never gives up the references of the tasks left in the workers' rings
    while (Header* task = worker.run_queue.pop()) drop_reference(task);
    //@ instead
    (void)worker;
    //@ end
//@ end
//@ chapters lifo-slot..
    if (worker.lifo_slot) drop_reference(std::exchange(worker.lifo_slot, nullptr));
//@ end
//@ chapters coop..
    for (Header* task : worker.deferred) drop_reference(task);
    worker.deferred.clear();
//@ end
//@ chapters local-queues..
  }
//@ end
  //@ starter
  // TODO: shut the runtime down, leaking nothing and leaving no thread:
  //  - close the queue (inject_.close() hands over what was queued): the
  //    run loop leaves once it finds the queue closed;
  //  - wake every worker (parked ones sleep on workers_[i].parker; also
  //    clear the sleepers' list with idle_.take_all()), then join them;
  //  - cancel every task left (cancel_all_tasks()), and give up the
  //    reference of each Notified that was queued (drop_reference; they
  //    are linked through queue_next).
  // Hint: in what order? A worker still running must not poll a task
  // whose coroutine this thread is destroying.
  throw Todo("@NN@ shutdown (@FILE@)");
  //@ end
}
//@ listing-end multi_thread_shutdown

}  // namespace rt::detail
