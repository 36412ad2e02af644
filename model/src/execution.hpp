// One execution of a test body under the checker's control: its threads,
// the state of every object it touches, and the memory model that decides
// what a load may read. loom's rt/execution.rs, rt/thread.rs, rt/atomic.rs,
// rt/mutex.rs, rt/condvar.rs and rt/cell.rs in one place, because each is
// a few lines over the same clocks.
//
// Each modelled thread runs on an OS thread of its own (a carrier), but
// only the one holding the baton runs: a switch hands the baton over and
// waits to get it back. So the code under test keeps its real stacks and
// thread_locals, and the checker's own state needs no lock beyond the
// baton's.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include "model/where.hpp"
#include <string>
#include <vector>

#include "clock.hpp"
#include "model/core.hpp"
#include "model/model.hpp"
#include "path.hpp"

namespace model::detail {

struct Carrier;

// A store in a location's modification order.
struct Store {
  std::uint64_t value;
  int thread;          // -1: the value the location had when the execution began
  std::uint32_t time;  // the writer's clock entry at the store
  Clock sync;          // what an acquire that reads it learns (release sequences included)
  bool seq_cst;
};

struct AtomicState {
  Where made;
  bool inside;  // made during this execution (counted by the leak check)
  bool alive = true;
  std::vector<Store> stores;
  // Per thread: (its clock entry, the store index) of each read or write
  // it did here, in order. Coherence forbids reading older than what one
  // has seen, or than what anything that happens before one has seen.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> seen[max_threads];
  int last_seq_cst = -1;
  // The last load by each thread: where, and what it read. A load at the
  // same place that read a store older than the newest (a spin loop) must
  // read a newer one next time: a search would never end otherwise.
  const char* last_load_file[max_threads] = {};
  std::uint32_t last_load_line[max_threads] = {};
  std::uint32_t last_load_index[max_threads] = {};
};

struct MutexState {
  Where made;
  bool inside;
  bool alive = true;
  int owner = -1;
  Clock released;  // the last unlocker's clock: a lock acquires it
};

struct CondvarState {
  Where made;
  bool inside;
  bool alive = true;
  std::deque<int> waiters;
};

struct CellState {
  Where made;
  bool inside;
  bool alive = true;
  int writer = -1;
  std::uint32_t write_time = 0;
  Where write_where;
  std::uint32_t read_time[max_threads] = {};
  Where read_where[max_threads];
};

enum class Blocked { none, mutex, condvar, join };

struct ThreadState {
  enum class Status { runnable, blocked, finished };
  Status status = Status::runnable;
  Blocked blocked = Blocked::none;
  std::uint32_t blocked_on = 0;  // the object's index
  bool timed = false;            // a timed condvar wait: may time out when nothing else can run
  bool timed_out = false;
  Where where;                   // its last operation, for reports
  Clock clock;
  Clock release_fence;    // the clock at its last release fence
  Clock acquire_pending;  // what its relaxed loads read, for an acquire fence
  std::vector<int> joiners;
  Carrier* carrier = nullptr;
  void (*entry)(void*) = nullptr;
  void* closure = nullptr;
  void (*destroy)(void*) = nullptr;
  int priority = 0;     // PCT
  bool yielded = false;  // it called yield_now: the others go first
};

// One line of the printed schedule.
struct Event {
  int thread;
  const char* op;     // "load", "store", "fetch_add", "lock", "switch", ...
  char kind;          // 'a'tomic, 'm'utex, 'c'ondvar, 'u'nsafe cell, 't'hread, 'f'ence, 's'witch
  std::uint32_t object;
  Where where;
  std::memory_order order;
  bool has_read = false, has_written = false;
  std::uint64_t read = 0, written = 0;
  int read_from = -2;  // the writer of the store read (-1: the initial value)
  bool stale = false;  // a newer store existed
  bool preempted = false;
};

class Execution {
 public:
  // `priorities` and `change_points`: PCT's, for a random search.
  Execution(std::uint64_t serial, Path& path, const Options& options, std::vector<int> priorities,
            std::vector<std::size_t> change_points);

  // Runs body as thread 0 and returns when every thread has finished or
  // the execution failed. Called by the explorer's own (unmodelled) thread.
  void run(const std::function<void()>& body);

  // Reached by the modelled types (through current()).
  std::uint64_t serial() const { return serial_; }
  AtomicState& atomic(Handle& handle, std::uint64_t outside, Where made);
  MutexState& mutex(Handle& handle, Where made);
  CondvarState& condvar(Handle& handle, Where made);
  CellState& cell(Handle& handle, Where made);
  void register_new(Handle& handle, char kind, Where made);

  std::uint64_t load(Handle& handle, std::uint64_t outside, Where made, std::memory_order order, Where where);
  void store(Handle& handle, std::uint64_t outside, Where made, std::uint64_t value, std::memory_order order,
             Where where);
  std::uint64_t rmw_begin(Handle& handle, std::uint64_t outside, Where made, const char* op, Where where);
  void rmw_finish(Handle& handle, std::uint64_t value, std::memory_order order);
  void rmw_fail(Handle& handle, std::memory_order order);
  void fence(std::memory_order order, Where where);

  void lock(Handle& handle, Where made, Where where);
  bool try_lock(Handle& handle, Where made, Where where);
  void unlock(Handle& handle, Where made);
  void release(Handle& handle, Where made);  // unlock, with no switch after it
  bool wait(Handle& condvar, Where made, Handle& mutex, Where mutex_made, bool timed, Where where);
  void notify(Handle& handle, Where made, bool all, Where where);

  void cell_access(Handle& handle, Where made, bool write, Where where);

  int spawn(void (*entry)(void*), void* closure, void (*destroy)(void*), Where where);
  void join(int thread, Where where);
  void yield(Where where);

  void destroyed(Handle& handle, char kind);

  // Ends the execution as failed. Never returns to its caller's code when
  // called on a modelled thread: that thread stays parked for good.
  [[noreturn]] void fail(std::string kind, std::string message);

  bool failed() const { return failed_; }
  const std::string& failure_kind() const { return failure_kind_; }
  const std::string& failure_message() const { return failure_message_; }
  std::string schedule_text() const;
  std::size_t pct_steps() const { return pct_steps_; }

  int self() const;
  int threads_running() const;

 private:
  friend void carrier_main(Carrier* carrier);

  ThreadState& me() { return threads_[static_cast<std::size_t>(self())]; }
  void tick();
  // A point where another thread may run. Returns when this one runs again.
  void schedule(Where where);
  // This thread cannot go on; returns when another thread made it runnable
  // and the schedule gave it the baton back.
  void block(Blocked on, std::uint32_t object, bool timed, Where where);
  int choose(int current, bool current_runnable);
  void time_out_early(std::vector<int>& options);
  void hand_to(int next);
  void wait_for_baton(int id);
  void finish(int id);
  void check_leaks();
  std::string deadlock_text() const;
  std::string name(char kind, std::uint32_t index) const;
  std::uint32_t min_readable(const AtomicState& atomic, int thread, std::memory_order order) const;
  void trace(Event event);

  std::uint64_t serial_;
  Path& path_;
  const Options& options_;
  std::deque<ThreadState> threads_;  // deques: a reference stays valid as they grow
  std::deque<AtomicState> atomics_;
  std::deque<MutexState> mutexes_;
  std::deque<CondvarState> condvars_;
  std::deque<CellState> cells_;
  Clock seq_cst_fences_;
  int preemptions_ = 0;
  std::size_t steps_ = 0;
  std::size_t pct_steps_ = 0;
  std::vector<int> priorities_;
  std::vector<std::size_t> change_points_;
  int lowest_priority_ = 0;
  std::vector<Event> events_;
  std::size_t events_dropped_ = 0;
  int pending_rmw_ = -1;  // the store index an RMW read
  bool failed_ = false;
  std::string failure_kind_;
  std::string failure_message_;

  // The baton: which thread may run, guarded by one lock shared with the
  // explorer.
  int active_ = -1;
  bool done_ = false;
};

// The execution this OS thread runs a modelled thread of, or nullptr.
Execution* current();

}  // namespace model::detail
