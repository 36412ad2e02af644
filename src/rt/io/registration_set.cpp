//@ file reactor..
// The registration set, compiled once per runtime; see registration_set.hpp.
#include "rt/io/registration_set.hpp"

#include <utility>

namespace rt::detail {

std::shared_ptr<ScheduledIo> RegistrationSet::allocate() {
  auto io = std::make_shared<ScheduledIo>();
  std::lock_guard lock(mutex_);
  if (is_shutdown_) return nullptr;
  registrations_.emplace(io.get(), io);
  return io;
}

//@ listing deregister
bool RegistrationSet::deregister(ScheduledIo* io) {
  std::shared_ptr<ScheduledIo> released;  // freed after the unlock, if at all
  std::lock_guard lock(mutex_);
  auto it = registrations_.find(io);
  if (it == registrations_.end()) return false;  // shut down: freed already
  released = std::move(it->second);
  registrations_.erase(it);
  //@ mutant reactor release_during_dispatch: frees the registration at once, though an event for it may be in the driver's hands
  pending_release_.push_back(std::move(released));
  // release: the driver that sees the count sees the list (it locks it too).
  std::size_t pending = num_pending_release_.fetch_add(1, std::memory_order_release) + 1;
  return pending == notify_after;
  //@ instead
  return false;
  //@ end
}
//@ listing-end deregister

void RegistrationSet::release() {
  std::vector<std::shared_ptr<ScheduledIo>> released;  // freed after the unlock
  std::lock_guard lock(mutex_);
  released.swap(pending_release_);
  num_pending_release_.store(0, std::memory_order_release);
}

std::vector<std::shared_ptr<ScheduledIo>> RegistrationSet::shutdown() {
  std::vector<std::shared_ptr<ScheduledIo>> live;
  std::vector<std::shared_ptr<ScheduledIo>> released;
  std::lock_guard lock(mutex_);
  is_shutdown_ = true;
  released.swap(pending_release_);
  num_pending_release_.store(0, std::memory_order_release);
  live.reserve(registrations_.size());
  for (auto& [raw, io] : registrations_) live.push_back(std::move(io));
  registrations_.clear();
  return live;
}

std::size_t RegistrationSet::held() const {
  std::lock_guard lock(mutex_);
  return registrations_.size() + pending_release_.size();
}

bool RegistrationSet::is_shutdown() const {
  std::lock_guard lock(mutex_);
  return is_shutdown_;
}

}  // namespace rt::detail
