// The modelled types' cores: inside an execution each operation goes to
// it; outside, they act as plain sequential code on their own value.
#include <stdexcept>

#include "execution.hpp"

namespace model::detail {

AtomicCore::AtomicCore(std::uint64_t initial, Where made) : outside_(initial), made_(made) {
  if (Execution* execution = current()) {
    execution->register_new(handle_, 'a', made);
    // Its first value, written by the thread that makes it.
    AtomicState& state = execution->atomic(handle_, initial, made);
    int id = execution->self();
    state.stores.push_back(Store{initial, id, 0, {}, false});
    state.seen[id].emplace_back(0, 0);
  }
}

AtomicCore::~AtomicCore() {
  if (Execution* execution = current()) execution->destroyed(handle_, 'a');
}

std::uint64_t AtomicCore::load(std::memory_order order, Where where) {
  if (Execution* execution = current()) return execution->load(handle_, outside_, made_, order, where);
  return outside_;
}

void AtomicCore::store(std::uint64_t value, std::memory_order order, Where where) {
  if (Execution* execution = current()) return execution->store(handle_, outside_, made_, value, order, where);
  outside_ = value;
}

std::uint64_t AtomicCore::rmw_begin(const char* op, Where where) {
  if (Execution* execution = current()) return execution->rmw_begin(handle_, outside_, made_, op, where);
  return outside_;
}

void AtomicCore::rmw_finish(std::uint64_t value, std::memory_order order) {
  if (Execution* execution = current()) return execution->rmw_finish(handle_, value, order);
  outside_ = value;
}

void AtomicCore::rmw_fail(std::memory_order order) {
  if (Execution* execution = current()) execution->rmw_fail(handle_, order);
}

MutexCore::MutexCore(Where made) : made_(made) {
  if (Execution* execution = current()) execution->register_new(handle_, 'm', made);
}
MutexCore::~MutexCore() {
  if (Execution* execution = current()) execution->destroyed(handle_, 'm');
}
void MutexCore::lock(Where where) {
  if (Execution* execution = current()) return execution->lock(handle_, made_, where);
  outside_locked_ = true;
}
bool MutexCore::try_lock(Where where) {
  if (Execution* execution = current()) return execution->try_lock(handle_, made_, where);
  if (outside_locked_) return false;
  outside_locked_ = true;
  return true;
}
void MutexCore::unlock() {
  if (Execution* execution = current()) return execution->unlock(handle_, made_);
  outside_locked_ = false;
}

CondvarCore::CondvarCore(Where made) : made_(made) {
  if (Execution* execution = current()) execution->register_new(handle_, 'c', made);
}
CondvarCore::~CondvarCore() {
  if (Execution* execution = current()) execution->destroyed(handle_, 'c');
}
bool CondvarCore::wait(MutexCore& mutex, bool timed, Where where) {
  if (Execution* execution = current()) {
    return execution->wait(handle_, made_, mutex.handle_, mutex.made_, timed, where);
  }
  // Outside a body there is one thread: a wait could only time out.
  return false;
}
void CondvarCore::notify_one(Where where) {
  if (Execution* execution = current()) execution->notify(handle_, made_, false, where);
}
void CondvarCore::notify_all(Where where) {
  if (Execution* execution = current()) execution->notify(handle_, made_, true, where);
}

CellCore::CellCore(Where made) : made_(made) {
  if (Execution* execution = current()) execution->register_new(handle_, 'u', made);
}
CellCore::~CellCore() {
  if (Execution* execution = current()) execution->destroyed(handle_, 'u');
}
void CellCore::read(Where where) const {
  if (Execution* execution = current()) execution->cell_access(handle_, made_, false, where);
}
void CellCore::write(Where where) {
  if (Execution* execution = current()) execution->cell_access(handle_, made_, true, where);
}

ThreadCore::ThreadCore(Entry entry, void* closure, void (*destroy)(void*), Where made) {
  Execution* execution = current();
  if (!execution) {
    destroy(closure);
    throw std::logic_error("a model::thread can only be started inside model::explore");
  }
  id_ = execution->spawn(entry, closure, destroy, made);
}
void ThreadCore::join(Where where) {
  if (Execution* execution = current()) execution->join(id_, where);
  joined_ = true;
}
void ThreadCore::detach() { joined_ = true; }

void fence(std::memory_order order, Where where) {
  if (Execution* execution = current()) execution->fence(order, where);
}

}  // namespace model::detail
