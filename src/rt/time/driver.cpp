//@ file timers..
// The time driver, compiled once per runtime; see driver.hpp.
#include "rt/time/driver.hpp"

#include <algorithm>
#include <chrono>
#include <climits>

#include "rt/sync/wait_list.hpp"

namespace rt::detail {

namespace {
constexpr std::uint64_t never = UINT64_MAX;
constexpr std::int64_t nanos_per_tick = 1'000'000;  // 1 ms
}  // namespace

TimeDriver::TimeDriver(std::shared_ptr<IoDriver> io, bool start_paused)
    : io_(std::move(io)), clock_(start_paused), start_(clock_.now()) {}

//@ listing ticks
std::uint64_t TimeDriver::deadline_to_tick(time::Instant deadline) const {
  std::int64_t nanos = (deadline - start_).count();
  if (nanos <= 0) return 0;
  //@ mutant timers deadline_rounded_down: rounds a deadline down to the millisecond, so a timer can fire early
  return static_cast<std::uint64_t>((nanos + nanos_per_tick - 1) / nanos_per_tick);  // up: never early
  //@ instead
  return static_cast<std::uint64_t>(nanos / nanos_per_tick);
  //@ end
}

std::uint64_t TimeDriver::now_tick() const {
  std::int64_t nanos = (clock_.now() - start_).count();
  return nanos <= 0 ? 0 : static_cast<std::uint64_t>(nanos / nanos_per_tick);  // down
}
//@ listing-end ticks

time::Instant TimeDriver::tick_to_instant(std::uint64_t tick) const {
  return start_ + std::chrono::milliseconds(tick);
}

//@ listing register_entry
bool TimeDriver::register_entry(TimerEntry& entry, const Waker& waker) {
  registrations_.fetch_add(1, std::memory_order_relaxed);  // a statistic
  {
    std::lock_guard lock(mutex_);
    if (is_shutdown() || !wheel_.insert(&entry)) {
      entry.state.write(TimerEntry::State::fired);  // due already: ready now
      return true;
    }
    entry.state.write(TimerEntry::State::registered);
    entry.waker = waker;
    ++num_timers_;
  }
  // The driver may be asleep towards a later deadline: it must wake to
  // sleep less. (acquire: read what the parking driver stored.)
  //@ mutant timers ignores_earlier_deadline: never wakes a driver that sleeps towards a later deadline
  if (entry.deadline < next_wake_.load(std::memory_order_acquire)) io_->unpark();
  //@ instead
  //@ end
  return false;
}
//@ listing-end register_entry

bool TimeDriver::poll_entry(TimerEntry& entry, const Waker& waker) {
  std::lock_guard lock(mutex_);
  if (entry.state.read() == TimerEntry::State::fired) return true;
  if (!entry.waker.will_wake(waker)) entry.waker = waker;  // polled from another task now
  return false;
}

void TimeDriver::deregister_entry(TimerEntry& entry) {
  Waker waker;  // dropped after the unlock
  std::lock_guard lock(mutex_);
  if (entry.state.read() == TimerEntry::State::registered) {
    wheel_.remove(&entry);
    --num_timers_;
  }
  entry.state.write(TimerEntry::State::idle);
  waker = std::move(entry.waker);
}

void TimeDriver::reset_entry(TimerEntry& entry, std::uint64_t deadline) {
  Waker fired;  // woken after the unlock, if due at once
  {
    std::lock_guard lock(mutex_);
    if (entry.state.read() == TimerEntry::State::registered) {
      wheel_.remove(&entry);
      --num_timers_;
    }
    entry.deadline = deadline;
    if (is_shutdown() || !wheel_.insert(&entry)) {
      entry.state.write(TimerEntry::State::fired);
      fired = std::move(entry.waker);
    } else {
      entry.state.write(TimerEntry::State::registered);
      ++num_timers_;
    }
  }
  if (fired) {
    fired.wake();
    return;
  }
  //@ mutant timers reset_wakes_no_driver: moves the timer sooner without waking the driver that sleeps towards a later deadline
  if (deadline < next_wake_.load(std::memory_order_acquire)) io_->unpark();
  //@ instead
  //@ end
}

bool TimeDriver::has_fired(const TimerEntry& entry) {
  std::lock_guard lock(mutex_);
  return entry.state.read() == TimerEntry::State::fired;
}

std::size_t TimeDriver::num_timers() {
  std::lock_guard lock(mutex_);
  return num_timers_;
}

//@ listing park_timeout
int TimeDriver::park_timeout(int timeout_ms) {
  std::lock_guard lock(mutex_);
  std::optional<std::uint64_t> next = wheel_.next_expiration_time();
  // release: a registration that reads it sees the wheel as it is now.
  next_wake_.store(next.value_or(never), std::memory_order_release);
  if (!next) return timeout_ms;
  std::uint64_t now = now_tick();
  //@ mutant timers overdue_timeout_wraps: subtracts now from an overdue deadline, which wraps: the driver sleeps for ever instead of firing it
  std::uint64_t until = *next > now ? *next - now : 0;
  //@ instead
  std::uint64_t until = *next - now;
  //@ end
  auto until_ms = static_cast<int>(std::min<std::uint64_t>(until, INT_MAX));
  return timeout_ms < 0 ? until_ms : std::min(timeout_ms, until_ms);
}
//@ listing-end park_timeout

//@ listing time_park
void TimeDriver::park(int timeout_ms) {
  //@ exercise timers park
  //@ mutant timers park_ignores_timers: sleeps for the caller's timeout, whatever timer is due sooner
  int timeout = park_timeout(timeout_ms);
  //@ instead
  int timeout = timeout_ms;
  //@ end
  if (clock_.is_paused() && timeout > 0) {
    // A paused clock never reaches the timer: look at I/O without
    // sleeping, and if nothing came, move the clock to the timer instead.
    //@ mutant timers paused_clock_ignores_io: moves the paused clock to the timer even when an I/O event came, so a read ready now happens at the timer's time
    if (io_->turn(0) == 0) {
    //@ instead
    io_->turn(0);
    {
    //@ end
      time::Instant next = tick_to_instant(now_tick() + static_cast<std::uint64_t>(timeout));
      clock_.advance(next - clock_.now());
    }
  } else {
    if (auto hook = before_time_driver_parks.load(std::memory_order_acquire)) hook(timeout);
    io_->turn(timeout);
  }
  process_at(now_tick());
  //@ starter
  // TODO: sleep in the I/O driver no longer than the caller's timeout_ms
  // (-1: no limit) and no longer than the next timer, then fire what is
  // due:
  //  - park_timeout(timeout_ms) reads the wheel's next deadline (and lets
  //    registrations know it, so that an earlier timer wakes us) and
  //    gives the timeout to sleep;
  //  - a paused clock (clock_.is_paused()) never gets to the timer by
  //    itself: with a timeout above 0, poll I/O instead (io_->turn(0)),
  //    and if no event came, advance the clock (clock_.advance) to the
  //    instant of the tick now_tick() + timeout (tick_to_instant), not by
  //    the timeout: now may sit inside a tick;
  //  - otherwise, call the test hook right before the real sleep, then
  //    sleep: io_->turn(timeout);
  //      if (auto hook = before_time_driver_parks.load(std::memory_order_acquire)) hook(timeout);
  //  - either way, then fire every timer due now: process_at(now_tick()).
  // Hint: why must the sleep stop at the next timer, and what wakes it
  // if a sooner timer is registered while it sleeps?
  (void)timeout_ms;
  throw Todo("@NN@ park (@FILE@)");
  //@ end
}
//@ listing-end time_park

//@ listing process_at
void TimeDriver::process_at(std::uint64_t now) {
  WakeList wakers;  // woken with the lock released, 32 at a time
  std::unique_lock lock(mutex_);
  while (TimerEntry* entry = wheel_.poll(now)) {
    entry->state.write(TimerEntry::State::fired);
    --num_timers_;
    //@ mutant timers wake_under_lock: wakes each task with the wheel's lock held
    wakers.push(std::move(entry->waker));
    if (!wakers.can_push()) {
      lock.unlock();
      wakers.wake_all();
      lock.lock();
    }
    //@ instead
    entry->waker.wake();
    //@ end
  }
  next_wake_.store(wheel_.next_expiration_time().value_or(never), std::memory_order_release);
  lock.unlock();
  wakers.wake_all();
}
//@ listing-end process_at

void TimeDriver::shutdown() {
  shutdown_.store(true, std::memory_order_release);
  if (num_timers() == 0) return;
  process_at(never);  // every timer fires: its task, if any is left, ends
}

}  // namespace rt::detail
