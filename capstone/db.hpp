// Db: the keyspace, string keys to string values, each with an optional
// expiry instant. Mirrors mini-redis's db.rs (a mutex around a HashMap, and
// a BTreeSet of expiry instants that a background task purges), with the
// expiry rules of Redis's db.c and expire.c.
//
//   redis::Db db;
//   db.set("k", "v", {.expires_at = now + 10s}, now);
//   db.read("k", now, [](std::string_view value) { ... });
//
// A key is expired once `now` is past its instant (Redis's keyIsExpired):
// every access checks, and removes an expired key it finds (lazy expiry),
// so a key is never seen after its time, however late the purge runs.
// purge_expired() removes the rest, soonest first, and says when it must
// run next; the server runs it in a task on the runtime's timers.
//
// The keys are split over shards by hash, each behind its own std::mutex,
// so that workers serving different keys rarely meet on one lock. A lock is
// held only inside one call, never while a task waits: a std::mutex held
// across a co_await would block a worker thread (chapter 03's experiment).
//
// Plain C++: time comes in as `now`, from whichever clock the caller runs
// on (the course's server passes its runtime's clock).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace redis {

// Redis keeps expiry instants in milliseconds; so does the keyspace.
using Millis = std::chrono::milliseconds;
using Instant = std::chrono::time_point<std::chrono::steady_clock, Millis>;
inline constexpr Instant never = Instant::max();

class Db {
 public:
  // What SET does with a key that has a value already (NX, XX), and with
  // its expiry (KEEPTTL, or EX/PX/EXAT/PXAT: expires_at).
  struct SetOptions {
    enum class Condition { always, if_absent, if_present };
    Condition condition = Condition::always;
    bool keep_ttl = false;
    Instant expires_at = never;
  };
  struct SetResult {
    bool written = false;  // false: NX or XX said no
    bool existed = false;  // there was a value; with `old` given, it is there now
  };
  // The conditions of EXPIRE (Redis 7): NX, XX, GT, LT. A key without an
  // expiry counts as one that never expires.
  struct ExpireCondition {
    bool nx = false, xx = false, gt = false, lt = false;
  };
  enum class IncrStatus { ok, not_integer, overflow };
  struct IncrResult {
    IncrStatus status;
    std::int64_t value;
  };

  static constexpr std::size_t default_shards = 16;

  explicit Db(std::size_t shards = default_shards);

  // Calls f(value) under the key's lock; false (and no call) when there is
  // no such key.
  template <class F>
  bool read(std::string_view key, Instant now, F&& f) {
    Shard& shard = shard_of(key);
    std::lock_guard lock(shard.mutex);
    Entry* entry = live(shard, key, now);
    if (!entry) return false;
    f(std::string_view(entry->value));
    return true;
  }

  // SET: `old`, when given, receives the value it replaced (SET ... GET).
  SetResult set(std::string_view key, std::string_view value, const SetOptions& options, Instant now,
                std::string* old = nullptr);
  // DEL's and EXISTS's answer for one key.
  bool remove(std::string_view key, Instant now);
  bool exists(std::string_view key, Instant now);
  // INCR, DECR: a missing key counts as 0; the expiry stays.
  IncrResult increment(std::string_view key, std::int64_t delta, Instant now);
  // EXPIRE: gives the key the instant `when` if the condition holds; an
  // instant already past deletes the key. Whether the key was changed.
  bool expire(std::string_view key, Instant when, ExpireCondition condition, Instant now);
  // TTL's answer: nothing for no such key, `never` for a key that does not
  // expire, else its instant.
  std::optional<Instant> expiry(std::string_view key, Instant now);
  // Every key, expired or not (DBSIZE, as Redis counts them).
  std::size_t size();

  // Removes every expired key; returns when to run again: just past the
  // soonest expiry left (`never`: no key has one). What mini-redis's
  // purge_expired_keys does.
  Instant purge_expired(Instant now);
  // Called when a key is given an expiry sooner than the purge planned to
  // run next, so that the purge task wakes up earlier. Set it before the
  // keyspace is shared; it may be called from any thread, with no lock held.
  void on_sooner_expiry(std::function<void()> wake) { wake_purge_ = std::move(wake); }

 private:
  struct Entry {
    std::string value;
    Instant expires_at = never;
  };
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view key) const noexcept { return std::hash<std::string_view>{}(key); }
  };
  // One lock's share of the keys. Aligned apart, so that two workers
  // locking two shards do not fight over one cache line.
  struct alignas(64) Shard {
    std::mutex mutex;
    std::unordered_map<std::string, Entry, Hash, std::equal_to<>> entries;
    std::multimap<Instant, std::string> expiries;  // the keys that have an expiry, soonest first
  };

  Shard& shard_of(std::string_view key) { return shards_[Hash{}(key) % count_]; }
  // The key's entry, or nullptr if it is missing or expired (and then removed).
  Entry* live(Shard& shard, std::string_view key, Instant now);
  void erase(Shard& shard, std::unordered_map<std::string, Entry, Hash, std::equal_to<>>::iterator at);
  // Gives `entry` (of `key`) a new expiry, keeping the index in step; true
  // when the purge task must be told.
  bool set_expiry(Shard& shard, std::string_view key, Entry& entry, Instant when);
  static void forget_expiry(Shard& shard, std::string_view key, Instant when);
  void tell_purge(bool sooner) {
    if (sooner && wake_purge_) wake_purge_();
  }

  std::unique_ptr<Shard[]> shards_;
  std::size_t count_;
  // When the purge task will run next (milliseconds of Instant; `never`
  // while it is purging or has nothing to wait for).
  std::atomic<Millis::rep> purge_at_{never.time_since_epoch().count()};
  std::function<void()> wake_purge_;
};

}  // namespace redis
