//@ file reactor..
// RegistrationSet: every socket registered with one I/O driver, and those
// released but not freed yet. Mirrors Tokio's
// runtime/io/registration_set.rs.
//
// The driver dispatches an event to a registration through a raw pointer
// (the epoll token), so a registration must not be freed while an event
// for it may still be in the driver's hands. Deregistering removes the
// socket from epoll and moves its ScheduledIo to the pending list; the
// driver frees that list at the start of its next turn, when the events of
// the last epoll_wait have all been dispatched and no later one can name
// it.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "rt/io/scheduled_io.hpp"
#include "rt/loom.hpp"

namespace rt::detail {

class RegistrationSet {
 public:
  // After this many releases, a deregistration wakes the driver to free
  // them (Tokio's NOTIFY_AFTER), so that a driver nobody turns does not
  // hoard them.
  static constexpr std::size_t notify_after = 16;

  // A new registration; nullptr once the set is shut down.
  std::shared_ptr<ScheduledIo> allocate();
  // Moves `io` to the pending list. True when the driver should be woken
  // to free the list.
  bool deregister(ScheduledIo* io);
  bool needs_release() const { return num_pending_release_.load(std::memory_order_acquire) != 0; }
  // Frees the pending list; only the driver's thread, between two turns.
  void release();
  // Refuses new registrations, and returns every live one (to be shut
  // down) after freeing the pending ones.
  std::vector<std::shared_ptr<ScheduledIo>> shutdown();
  bool is_shutdown() const;
  // Registrations in memory: live, or released and waiting to be freed.
  std::size_t held() const;

 private:
  mutable loom::mutex mutex_;
  bool is_shutdown_ = false;
  std::unordered_map<ScheduledIo*, std::shared_ptr<ScheduledIo>> registrations_;
  std::vector<std::shared_ptr<ScheduledIo>> pending_release_;
  loom::atomic<std::size_t> num_pending_release_{0};
};

}  // namespace rt::detail
