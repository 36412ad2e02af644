// One execution: threads and the baton, blocking, and the memory model;
// see execution.hpp.
#include "execution.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <thread>

namespace model::detail {

// ---- carriers and the baton ----------------------------------------------

// An OS thread that runs modelled threads, one after another, for as many
// executions as it lives. A failed execution keeps its carriers parked for
// good (they are in the middle of the body's code) and new ones are made.
struct Carrier {
  std::condition_variable wake;
  Execution* execution = nullptr;
  int id = -1;
};

namespace {

// Never destroyed: parked carriers wait on them until the process exits.
std::mutex& baton = *new std::mutex;
std::condition_variable& finished = *new std::condition_variable;
std::vector<Carrier*>& idle = *new std::vector<Carrier*>;

thread_local Execution* running = nullptr;
thread_local int running_id = -1;
thread_local Carrier* running_carrier = nullptr;  // this OS thread's, read without the threads' table

bool is_acquire(std::memory_order order) {
  return order == std::memory_order_acquire || order == std::memory_order_acq_rel ||
         order == std::memory_order_seq_cst || order == std::memory_order_consume;
}
bool is_release(std::memory_order order) {
  return order == std::memory_order_release || order == std::memory_order_acq_rel ||
         order == std::memory_order_seq_cst;
}

std::string base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}
std::string place(const Where& where) {
  if (where.line() == 0) return "an unknown place";
  return base_name(where.file_name()) + ":" + std::to_string(where.line());
}

const char* order_name(std::memory_order order) {
  switch (order) {
    case std::memory_order_relaxed: return "relaxed";
    case std::memory_order_consume: return "consume";
    case std::memory_order_acquire: return "acquire";
    case std::memory_order_release: return "release";
    case std::memory_order_acq_rel: return "acq_rel";
    default: return "seq_cst";
  }
}

std::string value_text(std::uint64_t value) {
  if (value < 100000) return std::to_string(value);
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

Carrier* take_carrier();

template <typename State>
State fresh(Where made, bool inside) {
  State state{};
  state.made = made;
  state.inside = inside;
  return state;
}

}  // namespace

void carrier_main(Carrier* carrier) {
  std::unique_lock<std::mutex> lock(baton);
  for (;;) {
    carrier->wake.wait(lock, [&] {
      return carrier->execution && carrier->execution->active_ == carrier->id && !carrier->execution->done_;
    });
    Execution* execution = carrier->execution;
    int id = carrier->id;
    ThreadState& thread = execution->threads_[static_cast<std::size_t>(id)];
    lock.unlock();
    running = execution;
    running_id = id;
    running_carrier = carrier;
    try {
      thread.entry(thread.closure);
    } catch (const std::exception& error) {
      execution->fail("exception", "t" + std::to_string(id) + " threw an exception: " + error.what());
    } catch (...) {
      execution->fail("exception", "t" + std::to_string(id) + " threw an exception of a type not from std::exception");
    }
    if (thread.destroy) thread.destroy(thread.closure);
    execution->finish(id);
    running = nullptr;
    running_id = -1;
    lock.lock();
    carrier->execution = nullptr;
    carrier->id = -1;
    idle.push_back(carrier);
  }
}

namespace {

Carrier* take_carrier() {
  std::lock_guard<std::mutex> lock(baton);
  if (!idle.empty()) {
    Carrier* carrier = idle.back();
    idle.pop_back();
    return carrier;
  }
  auto* carrier = new Carrier;
  std::thread(carrier_main, carrier).detach();
  return carrier;
}

}  // namespace

Execution* current() { return running; }
int Execution::self() const { return running_id; }

int Execution::threads_running() const {
  return static_cast<int>(std::count_if(threads_.begin(), threads_.end(), [](const ThreadState& t) {
    return t.status != ThreadState::Status::finished;
  }));
}

Execution::Execution(std::uint64_t serial, Path& path, const Options& options, std::vector<int> priorities,
                     std::vector<std::size_t> change_points)
    : serial_(serial),
      path_(path),
      options_(options),
      priorities_(std::move(priorities)),
      change_points_(std::move(change_points)) {}

void Execution::run(const std::function<void()>& body) {
  ThreadState& main = threads_.emplace_back();
  main.clock.at[0] = 1;
  main.entry = [](void* closure) { (*static_cast<const std::function<void()>*>(closure))(); };
  main.closure = const_cast<std::function<void()>*>(&body);
  main.priority = priorities_.empty() ? 0 : priorities_[0];
  main.carrier = take_carrier();
  std::unique_lock<std::mutex> lock(baton);
  main.carrier->execution = this;
  main.carrier->id = 0;
  active_ = 0;
  main.carrier->wake.notify_one();
  finished.wait(lock, [&] { return done_; });
}

void Execution::hand_to(int next) {
  std::lock_guard<std::mutex> lock(baton);
  active_ = next;
  threads_[static_cast<std::size_t>(next)].carrier->wake.notify_one();
}

void Execution::wait_for_baton(int id) {
  // Not threads_[id].carrier: the thread now running may be adding to
  // that table.
  std::unique_lock<std::mutex> lock(baton);
  running_carrier->wake.wait(lock, [&] { return active_ == id && !done_; });
}

void Execution::fail(std::string kind, std::string message) {
  if (!failed_) {
    failed_ = true;
    failure_kind_ = std::move(kind);
    failure_message_ = std::move(message);
  }
  std::unique_lock<std::mutex> lock(baton);
  done_ = true;
  finished.notify_all();
  // This thread is in the middle of the body's code: it stays here.
  std::condition_variable never;
  for (;;) never.wait(lock);
}

// ---- scheduling ------------------------------------------------------------

void Execution::tick() { ++me().clock.at[static_cast<std::size_t>(self())]; }

void Execution::trace(Event event) {
  if (events_.size() >= 20000) {
    ++events_dropped_;
    return;
  }
  events_.push_back(event);
}

void Execution::schedule(Where where) {
  if (where.line() != 0) me().where = where;
  if (++steps_ > options_.max_steps) {
    fail("livelock", "the execution ran " + std::to_string(options_.max_steps) +
                         " operations without ending: a thread spins waiting for another "
                         "(a loop with no model::yield_now, or one that never ends)");
  }
  int id = self();
  int next = choose(id, true);
  if (next != id) {
    hand_to(next);
    wait_for_baton(id);
  }
  me().yielded = false;
}

void Execution::block(Blocked on, std::uint32_t object, bool timed, Where where) {
  ThreadState& thread = me();
  thread.status = ThreadState::Status::blocked;
  thread.blocked = on;
  thread.blocked_on = object;
  thread.timed = timed;
  if (where.line() != 0) thread.where = where;
  int id = self();
  int next = choose(id, false);
  if (next != id) {
    hand_to(next);
    wait_for_baton(id);
  }
}

int Execution::choose(int current, bool current_runnable) {
  std::vector<int> options;
  ThreadState* here = current >= 0 ? &threads_[static_cast<std::size_t>(current)] : nullptr;
  bool yielded = current_runnable && here && here->yielded;
  if (current_runnable && !yielded) options.push_back(current);
  for (std::size_t id = 0; id < threads_.size(); ++id) {
    if (static_cast<int>(id) != current && threads_[id].status == ThreadState::Status::runnable) {
      options.push_back(static_cast<int>(id));
    }
  }
  if (yielded && options.empty()) options.push_back(current);  // nothing else can run
  bool free_switch = !current_runnable || yielded;
  if (!options.empty()) time_out_early(options);
  if (options.empty()) {
    // Nothing can run: time passes, and a timed wait times out.
    for (std::size_t id = 0; id < threads_.size(); ++id) {
      ThreadState& waiter = threads_[id];
      if (waiter.status == ThreadState::Status::blocked && waiter.blocked == Blocked::condvar && waiter.timed) {
        auto& waiters = condvars_[waiter.blocked_on].waiters;
        waiters.erase(std::find(waiters.begin(), waiters.end(), static_cast<int>(id)));
        waiter.status = ThreadState::Status::runnable;
        waiter.blocked = Blocked::none;
        waiter.timed_out = true;
        options.push_back(static_cast<int>(id));
        break;
      }
    }
    if (options.empty()) fail("deadlock", deadlock_text());
  }
  int chosen = options[0];
  if (options.size() > 1) {
    int index;
    if (options_.mode == Options::Mode::random) {
      // PCT: the highest priority runs; at a change point the running
      // thread drops below every other.
      ++pct_steps_;
      if (current_runnable &&
          std::find(change_points_.begin(), change_points_.end(), pct_steps_) != change_points_.end()) {
        here->priority = --lowest_priority_;
      }
      std::size_t best = 0;
      for (std::size_t i = 1; i < options.size(); ++i) {
        if (threads_[static_cast<std::size_t>(options[i])].priority >
            threads_[static_cast<std::size_t>(options[best])].priority) {
          best = i;
        }
      }
      index = path_.record(static_cast<std::uint32_t>(options.size()), static_cast<std::uint32_t>(best));
    } else {
      if (!free_switch && preemptions_ >= options_.preemption_bound) {
        options.resize(1);  // at the bound: no more preemptions
        index = 0;
      } else {
        index = path_.choose(static_cast<std::uint32_t>(options.size()));
      }
    }
    if (index < 0 || index >= static_cast<int>(options.size())) {
      fail("nondeterminism", "the body did not run as it did before under the same choices: "
                             "it must not depend on time, randomness or state kept between runs");
    }
    chosen = options[static_cast<std::size_t>(index)];
  }
  if (chosen != current) {
    bool preempted = current_runnable && !free_switch;
    if (preempted) ++preemptions_;
    Event event{};
    event.thread = chosen;
    event.op = "switch";
    event.kind = 's';
    event.preempted = preempted;
    trace(event);
  }
  return chosen;
}

// With Options::early_timeouts: before the next thread is chosen, one
// timed waiter may time out now (a choice, counted as a preemption), and
// then runs when the schedule picks it, like any runnable thread.
void Execution::time_out_early(std::vector<int>& options) {
  if (!options_.early_timeouts || options_.mode != Options::Mode::exhaustive) return;
  if (preemptions_ >= options_.preemption_bound) return;
  std::vector<int> timed;
  for (std::size_t id = 0; id < threads_.size(); ++id) {
    const ThreadState& waiter = threads_[id];
    if (waiter.status == ThreadState::Status::blocked && waiter.blocked == Blocked::condvar && waiter.timed) {
      timed.push_back(static_cast<int>(id));
    }
  }
  if (timed.empty()) return;
  int index = path_.choose(static_cast<std::uint32_t>(timed.size() + 1));
  if (index <= 0) return;  // 0: nobody times out now
  int id = timed[static_cast<std::size_t>(index - 1)];
  ThreadState& waiter = threads_[static_cast<std::size_t>(id)];
  auto& waiters = condvars_[waiter.blocked_on].waiters;
  waiters.erase(std::find(waiters.begin(), waiters.end(), id));
  waiter.status = ThreadState::Status::runnable;
  waiter.blocked = Blocked::none;
  waiter.timed_out = true;
  ++preemptions_;
  Event event{};
  event.thread = id;
  event.op = "wait times out (early)";
  event.kind = 'c';
  event.object = waiter.blocked_on;
  trace(event);
  options.push_back(id);
}

void Execution::finish(int id) {
  ThreadState& thread = threads_[static_cast<std::size_t>(id)];
  thread.status = ThreadState::Status::finished;
  for (int joiner : thread.joiners) {
    ThreadState& waiting = threads_[static_cast<std::size_t>(joiner)];
    waiting.status = ThreadState::Status::runnable;
    waiting.blocked = Blocked::none;
  }
  thread.joiners.clear();
  Event event{};
  event.thread = id;
  event.op = "ends";
  event.kind = 't';
  trace(event);
  bool all = std::all_of(threads_.begin(), threads_.end(),
                         [](const ThreadState& t) { return t.status == ThreadState::Status::finished; });
  if (all) {
    check_leaks();
    std::lock_guard<std::mutex> lock(baton);
    done_ = true;
    finished.notify_all();
    return;
  }
  int next = choose(id, false);
  hand_to(next);
}

// ---- threads ---------------------------------------------------------------

int Execution::spawn(void (*entry)(void*), void* closure, void (*destroy)(void*), Where where) {
  tick();
  int id = static_cast<int>(threads_.size());
  if (id >= max_threads) {
    fail("too many threads", "a body may run at most " + std::to_string(max_threads) + " threads, main included");
  }
  ThreadState& child = threads_.emplace_back();
  child.clock = me().clock;  // what the parent did before happens before the child
  child.clock.at[static_cast<std::size_t>(id)] = 1;
  child.entry = entry;
  child.closure = closure;
  child.destroy = destroy;
  child.where = where;
  child.priority = static_cast<std::size_t>(id) < priorities_.size() ? priorities_[static_cast<std::size_t>(id)] : 0;
  child.carrier = take_carrier();
  {
    std::lock_guard<std::mutex> lock(baton);
    child.carrier->execution = this;
    child.carrier->id = id;
  }
  Event event{};
  event.thread = self();
  event.op = "spawn";
  event.kind = 't';
  event.object = static_cast<std::uint32_t>(id);
  event.where = where;
  trace(event);
  schedule(where);
  return id;
}

void Execution::join(int id, Where where) {
  schedule(where);
  ThreadState& child = threads_[static_cast<std::size_t>(id)];
  while (child.status != ThreadState::Status::finished) {
    child.joiners.push_back(self());
    block(Blocked::join, static_cast<std::uint32_t>(id), false, where);
  }
  tick();
  me().clock.join(child.clock);  // all the child did happens before the join returns
  Event event{};
  event.thread = self();
  event.op = "join";
  event.kind = 't';
  event.object = static_cast<std::uint32_t>(id);
  event.where = where;
  trace(event);
}

void Execution::yield(Where where) {
  me().yielded = true;
  schedule(where);
}

// ---- objects -----------------------------------------------------------------

void Execution::register_new(Handle& handle, char kind, Where made) {
  handle.serial = serial_;
  switch (kind) {
    case 'a':
      handle.index = static_cast<std::uint32_t>(atomics_.size());
      atomics_.push_back(fresh<AtomicState>(made, true));
      break;
    case 'm':
      handle.index = static_cast<std::uint32_t>(mutexes_.size());
      mutexes_.push_back(fresh<MutexState>(made, true));
      break;
    case 'c':
      handle.index = static_cast<std::uint32_t>(condvars_.size());
      condvars_.push_back(fresh<CondvarState>(made, true));
      break;
    default:
      handle.index = static_cast<std::uint32_t>(cells_.size());
      cells_.push_back(fresh<CellState>(made, true));
      CellState& cell = cells_.back();
      cell.writer = self();  // making it is its first write
      cell.write_time = me().clock.at[static_cast<std::size_t>(self())];
      cell.write_where = made;
      break;
  }
}

AtomicState& Execution::atomic(Handle& handle, std::uint64_t outside, Where made) {
  if (handle.serial != serial_) {
    // Made outside the body: it starts each execution from its plain value.
    handle.serial = serial_;
    handle.index = static_cast<std::uint32_t>(atomics_.size());
    atomics_.push_back(fresh<AtomicState>(made, false));
    atomics_.back().stores.push_back(Store{outside, -1, 0, {}, false});
  }
  return atomics_[handle.index];
}

MutexState& Execution::mutex(Handle& handle, Where made) {
  if (handle.serial != serial_) {
    handle.serial = serial_;
    handle.index = static_cast<std::uint32_t>(mutexes_.size());
    mutexes_.push_back(fresh<MutexState>(made, false));
  }
  return mutexes_[handle.index];
}

CondvarState& Execution::condvar(Handle& handle, Where made) {
  if (handle.serial != serial_) {
    handle.serial = serial_;
    handle.index = static_cast<std::uint32_t>(condvars_.size());
    condvars_.push_back(fresh<CondvarState>(made, false));
  }
  return condvars_[handle.index];
}

CellState& Execution::cell(Handle& handle, Where made) {
  if (handle.serial != serial_) {
    handle.serial = serial_;
    handle.index = static_cast<std::uint32_t>(cells_.size());
    cells_.push_back(fresh<CellState>(made, false));
  }
  return cells_[handle.index];
}

void Execution::destroyed(Handle& handle, char kind) {
  if (handle.serial != serial_) return;
  switch (kind) {
    case 'a': atomics_[handle.index].alive = false; break;
    case 'm': mutexes_[handle.index].alive = false; break;
    case 'c': condvars_[handle.index].alive = false; break;
    default: cells_[handle.index].alive = false; break;
  }
}

void Execution::check_leaks() {
  std::string leaked;
  int count = 0;
  auto note = [&](bool inside, bool alive, char kind, std::uint32_t index) {
    if (!inside || !alive) return;
    if (++count <= 6) leaked += "\n  " + name(kind, index);
  };
  for (std::uint32_t i = 0; i < atomics_.size(); ++i) note(atomics_[i].inside, atomics_[i].alive, 'a', i);
  for (std::uint32_t i = 0; i < mutexes_.size(); ++i) note(mutexes_[i].inside, mutexes_[i].alive, 'm', i);
  for (std::uint32_t i = 0; i < condvars_.size(); ++i) note(condvars_[i].inside, condvars_[i].alive, 'c', i);
  for (std::uint32_t i = 0; i < cells_.size(); ++i) note(cells_[i].inside, cells_[i].alive, 'u', i);
  if (count == 0) return;
  fail("leak", std::to_string(count) + " object(s) made during the execution are still alive when every "
                                       "thread has ended: whatever owns them was never freed" + leaked);
}

// ---- the memory model: atomics and fences ----------------------------------

// The oldest store of `atomic` that `thread` may still read: nothing it has
// read or written there, nor anything read or written there by events
// that happen before it, may be newer (coherence); a seq_cst load reads no
// older than the last seq_cst store.
std::uint32_t Execution::min_readable(const AtomicState& atomic, int thread, std::memory_order order) const {
  const Clock& clock = threads_[static_cast<std::size_t>(thread)].clock;
  std::uint32_t least = 0;
  for (int u = 0; u < max_threads; ++u) {
    const auto& seen = atomic.seen[u];
    for (auto it = seen.rbegin(); it != seen.rend(); ++it) {
      if (clock.knows(u, it->first)) {
        least = std::max(least, it->second);
        break;
      }
    }
  }
  // A store that happens before this load hides every older one.
  for (std::uint32_t i = static_cast<std::uint32_t>(atomic.stores.size()); i-- > least;) {
    const Store& store = atomic.stores[i];
    if (store.thread >= 0 && clock.knows(store.thread, store.time)) {
      least = i;
      break;
    }
  }
  if (order == std::memory_order_seq_cst && atomic.last_seq_cst > static_cast<int>(least)) {
    least = static_cast<std::uint32_t>(atomic.last_seq_cst);
  }
  return least;
}

std::uint64_t Execution::load(Handle& handle, std::uint64_t outside, Where made, std::memory_order order,
                              Where where) {
  schedule(where);
  AtomicState& atomic = this->atomic(handle, outside, made);
  tick();
  int id = self();
  ThreadState& thread = me();
  std::uint32_t newest = static_cast<std::uint32_t>(atomic.stores.size() - 1);
  std::uint32_t least = min_readable(atomic, id, order);
  std::uint32_t history = static_cast<std::uint32_t>(std::max(options_.load_history, 1));
  if (newest + 1 > history) least = std::max(least, newest + 1 - history);
  if (atomic.last_load_line[id] == where.line() && atomic.last_load_file[id] &&
      std::strcmp(atomic.last_load_file[id], where.file_name()) == 0 && atomic.last_load_index[id] < newest) {
    least = std::max(least, atomic.last_load_index[id] + 1);
  }
  std::uint32_t index = newest;
  if (newest > least) {
    int back = path_.choose(newest - least + 1);
    if (back < 0) fail("nondeterminism", "the body did not run as it did before under the same choices");
    index = newest - static_cast<std::uint32_t>(back);
  }
  const Store& store = atomic.stores[index];
  atomic.seen[id].emplace_back(thread.clock.at[static_cast<std::size_t>(id)], index);
  atomic.last_load_file[id] = where.file_name();
  atomic.last_load_line[id] = where.line();
  atomic.last_load_index[id] = index;
  if (is_acquire(order)) {
    thread.clock.join(store.sync);
  } else {
    thread.acquire_pending.join(store.sync);
  }
  Event event{};
  event.thread = id;
  event.op = "load";
  event.kind = 'a';
  event.object = handle.index;
  event.where = where;
  event.order = order;
  event.has_read = true;
  event.read = store.value;
  event.read_from = store.thread;
  event.stale = index != newest;
  trace(event);
  return store.value;
}

void Execution::store(Handle& handle, std::uint64_t outside, Where made, std::uint64_t value,
                      std::memory_order order, Where where) {
  schedule(where);
  AtomicState& atomic = this->atomic(handle, outside, made);
  tick();
  int id = self();
  ThreadState& thread = me();
  // C++20: only a release store starts a release sequence; a relaxed one
  // carries what a release fence before it published.
  Clock sync = is_release(order) ? thread.clock : thread.release_fence;
  std::uint32_t time = thread.clock.at[static_cast<std::size_t>(id)];
  atomic.stores.push_back(Store{value, id, time, sync, order == std::memory_order_seq_cst});
  std::uint32_t index = static_cast<std::uint32_t>(atomic.stores.size() - 1);
  atomic.seen[id].emplace_back(time, index);
  if (order == std::memory_order_seq_cst) atomic.last_seq_cst = static_cast<int>(index);
  Event event{};
  event.thread = id;
  event.op = "store";
  event.kind = 'a';
  event.object = handle.index;
  event.where = where;
  event.order = order;
  event.has_written = true;
  event.written = value;
  trace(event);
}

std::uint64_t Execution::rmw_begin(Handle& handle, std::uint64_t outside, Where made, const char* op,
                                   Where where) {
  schedule(where);
  AtomicState& atomic = this->atomic(handle, outside, made);
  tick();
  // A read-modify-write reads the newest store: nothing comes between its
  // read and its write in the modification order.
  pending_rmw_ = static_cast<int>(atomic.stores.size() - 1);
  Event event{};
  event.thread = self();
  event.op = op;
  event.kind = 'a';
  event.object = handle.index;
  event.where = where;
  event.has_read = true;
  event.read = atomic.stores.back().value;
  event.read_from = atomic.stores.back().thread;
  trace(event);
  return atomic.stores.back().value;
}

void Execution::rmw_finish(Handle& handle, std::uint64_t value, std::memory_order order) {
  AtomicState& atomic = atomics_[handle.index];
  const Store read = atomic.stores[static_cast<std::size_t>(pending_rmw_)];
  int id = self();
  ThreadState& thread = me();
  if (is_acquire(order)) {
    thread.clock.join(read.sync);
  } else {
    thread.acquire_pending.join(read.sync);
  }
  Clock sync = is_release(order) ? thread.clock : thread.release_fence;
  sync.join(read.sync);  // an RMW continues the release sequence it read from
  std::uint32_t time = thread.clock.at[static_cast<std::size_t>(id)];
  atomic.stores.push_back(Store{value, id, time, sync, order == std::memory_order_seq_cst});
  std::uint32_t index = static_cast<std::uint32_t>(atomic.stores.size() - 1);
  atomic.seen[id].emplace_back(time, index);
  if (order == std::memory_order_seq_cst) atomic.last_seq_cst = static_cast<int>(index);
  Event& event = events_.back();
  event.order = order;
  event.has_written = true;
  event.written = value;
}

void Execution::rmw_fail(Handle& handle, std::memory_order order) {
  AtomicState& atomic = atomics_[handle.index];
  const Store& read = atomic.stores[static_cast<std::size_t>(pending_rmw_)];
  int id = self();
  ThreadState& thread = me();
  atomic.seen[id].emplace_back(thread.clock.at[static_cast<std::size_t>(id)],
                               static_cast<std::uint32_t>(pending_rmw_));
  if (is_acquire(order)) {
    thread.clock.join(read.sync);
  } else {
    thread.acquire_pending.join(read.sync);
  }
  events_.back().order = order;
}

void Execution::fence(std::memory_order order, Where where) {
  schedule(where);
  tick();
  ThreadState& thread = me();
  if (is_acquire(order)) thread.clock.join(thread.acquire_pending);
  if (order == std::memory_order_seq_cst) {
    // seq_cst fences are totally ordered: each learns what the ones
    // before it knew.
    thread.clock.join(seq_cst_fences_);
    seq_cst_fences_ = thread.clock;
  }
  if (is_release(order)) thread.release_fence = thread.clock;
  Event event{};
  event.thread = self();
  event.op = "fence";
  event.kind = 'f';
  event.where = where;
  event.order = order;
  trace(event);
}

// ---- mutex and condition variable -------------------------------------------

void Execution::lock(Handle& handle, Where made, Where where) {
  schedule(where);
  MutexState& mutex = this->mutex(handle, made);
  while (mutex.owner >= 0) {
    if (mutex.owner == self()) fail("deadlock", "t" + std::to_string(self()) + " locks " + name('m', handle.index) + ", which it holds already");
    block(Blocked::mutex, handle.index, false, where);
  }
  mutex.owner = self();
  tick();
  me().clock.join(mutex.released);
  Event event{};
  event.thread = self();
  event.op = "lock";
  event.kind = 'm';
  event.object = handle.index;
  event.where = where;
  trace(event);
}

bool Execution::try_lock(Handle& handle, Where made, Where where) {
  schedule(where);
  MutexState& mutex = this->mutex(handle, made);
  if (mutex.owner >= 0) return false;
  mutex.owner = self();
  tick();
  me().clock.join(mutex.released);
  return true;
}

void Execution::unlock(Handle& handle, Where made) {
  release(handle, made);
  // Another thread may run right after an unlock: what this one writes
  // next is then seen late, as on real threads.
  schedule(Where());
}

void Execution::release(Handle& handle, Where made) {
  MutexState& mutex = this->mutex(handle, made);
  if (mutex.owner != self()) fail("bad unlock", "t" + std::to_string(self()) + " unlocks " + name('m', handle.index) + ", which it does not hold");
  tick();
  mutex.released = me().clock;
  mutex.owner = -1;
  for (ThreadState& thread : threads_) {
    if (thread.status == ThreadState::Status::blocked && thread.blocked == Blocked::mutex &&
        thread.blocked_on == handle.index) {
      thread.status = ThreadState::Status::runnable;
      thread.blocked = Blocked::none;
    }
  }
  Event event{};
  event.thread = self();
  event.op = "unlock";
  event.kind = 'm';
  event.object = handle.index;
  trace(event);
}

bool Execution::wait(Handle& handle, Where made, Handle& mutex_handle, Where mutex_made, bool timed,
                     Where where) {
  schedule(where);
  CondvarState& condvar = this->condvar(handle, made);
  condvar.waiters.push_back(self());
  Event event{};
  event.thread = self();
  event.op = "wait";
  event.kind = 'c';
  event.object = handle.index;
  event.where = where;
  trace(event);
  // Unlocking and starting to wait are one step: no notify falls between.
  release(mutex_handle, mutex_made);
  block(Blocked::condvar, handle.index, timed, where);
  bool timed_out = me().timed_out;
  me().timed_out = false;
  MutexState& mutex = this->mutex(mutex_handle, mutex_made);
  while (mutex.owner >= 0) block(Blocked::mutex, mutex_handle.index, false, where);
  mutex.owner = self();
  tick();
  me().clock.join(mutex.released);
  Event woke{};
  woke.thread = self();
  woke.op = timed_out ? "wait timed out" : "wait returns";
  woke.kind = 'c';
  woke.object = handle.index;
  woke.where = where;
  trace(woke);
  return !timed_out;
}

void Execution::notify(Handle& handle, Where made, bool all, Where where) {
  schedule(where);
  CondvarState& condvar = this->condvar(handle, made);
  tick();
  while (!condvar.waiters.empty()) {
    ThreadState& waiter = threads_[static_cast<std::size_t>(condvar.waiters.front())];
    condvar.waiters.pop_front();
    waiter.status = ThreadState::Status::runnable;
    waiter.blocked = Blocked::none;
    if (!all) break;
  }
  Event event{};
  event.thread = self();
  event.op = all ? "notify_all" : "notify_one";
  event.kind = 'c';
  event.object = handle.index;
  event.where = where;
  trace(event);
}

// ---- plain cells: data races -------------------------------------------------

void Execution::cell_access(Handle& handle, Where made, bool write, Where where) {
  CellState& cell = this->cell(handle, made);
  tick();
  int id = self();
  const Clock& clock = me().clock;
  if (cell.writer >= 0 && cell.writer != id && !clock.knows(cell.writer, cell.write_time)) {
    fail("data race", "t" + std::to_string(id) + (write ? " writes " : " reads ") + name('u', handle.index) +
                          " at " + place(where) + ", and t" + std::to_string(cell.writer) + " wrote it at " +
                          place(cell.write_where) + ": nothing orders the two (no happens-before between them)");
  }
  if (write) {
    for (int u = 0; u < max_threads; ++u) {
      if (u != id && cell.read_time[u] != 0 && !clock.knows(u, cell.read_time[u])) {
        fail("data race", "t" + std::to_string(id) + " writes " + name('u', handle.index) + " at " + place(where) +
                              ", and t" + std::to_string(u) + " read it at " + place(cell.read_where[u]) +
                              ": nothing orders the two (no happens-before between them)");
      }
    }
    cell.writer = id;
    cell.write_time = clock.at[static_cast<std::size_t>(id)];
    cell.write_where = where;
    std::fill(std::begin(cell.read_time), std::end(cell.read_time), 0);
  } else {
    cell.read_time[id] = clock.at[static_cast<std::size_t>(id)];
    cell.read_where[id] = where;
  }
  Event event{};
  event.thread = id;
  event.op = write ? "write" : "read";
  event.kind = 'u';
  event.object = handle.index;
  event.where = where;
  trace(event);
}

// ---- reports -------------------------------------------------------------------

std::string Execution::name(char kind, std::uint32_t index) const {
  switch (kind) {
    case 'a': return "atomic#" + std::to_string(index) + " (made at " + place(atomics_[index].made) + ")";
    case 'm': return "mutex#" + std::to_string(index) + " (made at " + place(mutexes_[index].made) + ")";
    case 'c': return "condvar#" + std::to_string(index) + " (made at " + place(condvars_[index].made) + ")";
    default: return "cell#" + std::to_string(index) + " (made at " + place(cells_[index].made) + ")";
  }
}

std::string Execution::deadlock_text() const {
  std::string text = "no thread can run, and not every thread has ended (a lost wake-up ends here):";
  for (std::size_t id = 0; id < threads_.size(); ++id) {
    const ThreadState& thread = threads_[id];
    if (thread.status == ThreadState::Status::finished) continue;
    text += "\n  t" + std::to_string(id) + " ";
    switch (thread.blocked) {
      case Blocked::mutex: text += "waits to lock " + name('m', thread.blocked_on); break;
      case Blocked::condvar: text += "waits on " + name('c', thread.blocked_on) + ", which nobody will notify"; break;
      case Blocked::join: text += "waits for t" + std::to_string(thread.blocked_on) + " to end"; break;
      default: text += "is runnable"; break;
    }
    text += ", at " + place(thread.where);
  }
  return text;
}

std::string Execution::schedule_text() const {
  std::string text;
  std::size_t shown = 80;
  std::size_t first = events_.size() > shown ? events_.size() - shown : 0;
  if (first > 0 || events_dropped_ > 0) {
    text += "  ... " + std::to_string(first + events_dropped_) + " earlier steps\n";
  }
  std::vector<std::pair<char, std::uint32_t>> named;
  for (std::size_t i = first; i < events_.size(); ++i) {
    const Event& event = events_[i];
    if (event.kind == 's') {
      text += std::string("  -- t") + std::to_string(event.thread) + " runs" +
              (event.preempted ? " (a preemption)" : "") + "\n";
      continue;
    }
    std::string line = "  t" + std::to_string(event.thread) + "  ";
    switch (event.kind) {
      case 'a': {
        line += "atomic#" + std::to_string(event.object) + "." + event.op + "(" + order_name(event.order) + ")";
        if (event.has_read) {
          line += " read " + value_text(event.read);
          line += event.read_from < 0 ? " (its first value)" : " (t" + std::to_string(event.read_from) + "'s store)";
          if (event.stale) line += ", an old store: a newer one exists";
        }
        if (event.has_written) line += (event.has_read ? ", wrote " : " wrote ") + value_text(event.written);
        named.emplace_back('a', event.object);
        break;
      }
      case 'm': line += std::string("mutex#") + std::to_string(event.object) + "." + event.op; named.emplace_back('m', event.object); break;
      case 'c': line += std::string("condvar#") + std::to_string(event.object) + "." + event.op; named.emplace_back('c', event.object); break;
      case 'u': line += std::string("cell#") + std::to_string(event.object) + "." + event.op; named.emplace_back('u', event.object); break;
      case 'f': line += std::string("fence(") + order_name(event.order) + ")"; break;
      default:
        line += event.op;
        if (std::strcmp(event.op, "ends") != 0) line += " t" + std::to_string(event.object);
        break;
    }
    if (event.where.line() != 0) line += "   at " + place(event.where);
    text += line + "\n";
  }
  std::sort(named.begin(), named.end());
  named.erase(std::unique(named.begin(), named.end()), named.end());
  if (!named.empty()) {
    text += "  where\n";
    for (auto [kind, index] : named) text += "    " + name(kind, index) + "\n";
  }
  return text;
}

}  // namespace model::detail
