// What the modelled types of sync.hpp hold: a small handle each, whose
// state lives in the execution that first touched it (execution.cpp).
// An object made outside any execution keeps its plain value there, and
// each execution starts again from that value.
#pragma once

#include <atomic>
#include <cstdint>
#include "model/where.hpp"

namespace model::detail {

using Where = model::Where;

// Which execution an object's state belongs to, and where it is there.
struct Handle {
  std::uint64_t serial = 0;  // 0: none yet
  std::uint32_t index = 0;
};

class AtomicCore {
 public:
  AtomicCore(std::uint64_t initial, Where made);
  ~AtomicCore();
  AtomicCore(const AtomicCore&) = delete;
  AtomicCore& operator=(const AtomicCore&) = delete;

  std::uint64_t load(std::memory_order order, Where where);
  void store(std::uint64_t value, std::memory_order order, Where where);
  // A read-modify-write in two halves with no switch between them: begin
  // reads the newest value; finish writes the new one, or, for a
  // compare-and-swap that failed, only completes the read.
  std::uint64_t rmw_begin(const char* op, Where where);
  void rmw_finish(std::uint64_t value, std::memory_order order);
  void rmw_fail(std::memory_order order);

 private:
  std::uint64_t outside_;  // the value outside any execution
  Where made_;
  Handle handle_;
};

class MutexCore {
 public:
  explicit MutexCore(Where made);
  ~MutexCore();
  void lock(Where where);
  bool try_lock(Where where);
  void unlock();

 private:
  friend class CondvarCore;
  Where made_;
  Handle handle_;
  bool outside_locked_ = false;
};

class CondvarCore {
 public:
  explicit CondvarCore(Where made);
  ~CondvarCore();
  // Unlocks `mutex`, waits for a notification, locks it again. A timed
  // wait returns false when it timed out: in the model, only when no
  // thread at all could run otherwise.
  bool wait(MutexCore& mutex, bool timed, Where where);
  void notify_one(Where where);
  void notify_all(Where where);

 private:
  Where made_;
  Handle handle_;
};

class CellCore {
 public:
  explicit CellCore(Where made);
  ~CellCore();
  void read(Where where) const;
  void write(Where where);

 private:
  Where made_;
  mutable Handle handle_;
};

// A modelled thread: spawned by the thread that makes it.
class ThreadCore {
 public:
  using Entry = void (*)(void* closure);
  ThreadCore(Entry entry, void* closure, void (*destroy)(void*), Where made);
  void join(Where where);
  void detach();
  bool joinable() const { return id_ >= 0 && !joined_; }
  int id() const { return id_; }

 private:
  int id_ = -1;
  bool joined_ = false;
};

void fence(std::memory_order order, Where where);

}  // namespace model::detail
