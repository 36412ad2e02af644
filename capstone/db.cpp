// The keyspace's operations; see db.hpp.
//
// How a sooner expiry reaches the purge task without a lost wake-up: the
// purge stores `never` in purge_at_ before it looks at the shards and the
// instant it will wake at after; a writer records its expiry under the
// shard's lock, then reads purge_at_ and wakes the task if its key is due
// sooner. Either the purge's look saw the key, or the writer's read sees
// `never` or a later plan, and wakes it.
#include "capstone/db.hpp"

#include <charconv>
#include <limits>

#include "capstone/resp.hpp"

namespace redis {

namespace {

// The instant a key with expiry `when` becomes expired: just past it.
Instant due(Instant when) { return when == never ? never : when + Millis(1); }

bool expired(Instant when, Instant now) { return now > when; }

}  // namespace

Db::Db(std::size_t shards) : shards_(new Shard[shards == 0 ? 1 : shards]), count_(shards == 0 ? 1 : shards) {}

Db::Entry* Db::live(Shard& shard, std::string_view key, Instant now) {
  auto at = shard.entries.find(key);
  if (at == shard.entries.end()) return nullptr;
  if (expired(at->second.expires_at, now)) {
    erase(shard, at);
    return nullptr;
  }
  return &at->second;
}

void Db::erase(Shard& shard, std::unordered_map<std::string, Entry, Hash, std::equal_to<>>::iterator at) {
  if (at->second.expires_at != never) forget_expiry(shard, at->first, at->second.expires_at);
  shard.entries.erase(at);
}

void Db::forget_expiry(Shard& shard, std::string_view key, Instant when) {
  auto [first, last] = shard.expiries.equal_range(when);
  for (auto it = first; it != last; ++it) {
    if (it->second == key) {
      shard.expiries.erase(it);
      return;
    }
  }
}

bool Db::set_expiry(Shard& shard, std::string_view key, Entry& entry, Instant when) {
  if (entry.expires_at == when) return false;
  if (entry.expires_at != never) forget_expiry(shard, key, entry.expires_at);
  entry.expires_at = when;
  if (when == never) return false;
  shard.expiries.emplace(when, std::string(key));
  return due(when).time_since_epoch().count() < purge_at_.load();
}

Db::SetResult Db::set(std::string_view key, std::string_view value, const SetOptions& options, Instant now,
                      std::string* old) {
  using Condition = SetOptions::Condition;
  Shard& shard = shard_of(key);
  SetResult result;
  bool sooner = false;
  {
    std::lock_guard lock(shard.mutex);
    Entry* entry = live(shard, key, now);
    result.existed = entry != nullptr;
    if (entry && old) old->assign(entry->value);
    if ((options.condition == Condition::if_absent && entry) || (options.condition == Condition::if_present && !entry)) {
      return result;
    }
    if (!entry) entry = &shard.entries.emplace(std::string(key), Entry{}).first->second;
    entry->value.assign(value);  // an existing value's buffer is reused
    if (!options.keep_ttl) sooner = set_expiry(shard, key, *entry, options.expires_at);
    result.written = true;
  }
  tell_purge(sooner);
  return result;
}

bool Db::remove(std::string_view key, Instant now) {
  Shard& shard = shard_of(key);
  std::lock_guard lock(shard.mutex);
  if (!live(shard, key, now)) return false;
  erase(shard, shard.entries.find(key));
  return true;
}

bool Db::exists(std::string_view key, Instant now) {
  Shard& shard = shard_of(key);
  std::lock_guard lock(shard.mutex);
  return live(shard, key, now) != nullptr;
}

Db::IncrResult Db::increment(std::string_view key, std::int64_t delta, Instant now) {
  Shard& shard = shard_of(key);
  std::lock_guard lock(shard.mutex);
  Entry* entry = live(shard, key, now);
  std::int64_t value = 0;
  if (entry) {
    std::optional<std::int64_t> parsed = resp::parse_integer(entry->value);
    if (!parsed) return {IncrStatus::not_integer, 0};
    value = *parsed;
  }
  using Limits = std::numeric_limits<std::int64_t>;
  if ((delta < 0 && value < 0 && delta < Limits::min() - value) ||
      (delta > 0 && value > 0 && delta > Limits::max() - value)) {
    return {IncrStatus::overflow, 0};
  }
  value += delta;
  if (!entry) entry = &shard.entries.emplace(std::string(key), Entry{}).first->second;
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  (void)ec;
  entry->value.assign(digits, end);
  return {IncrStatus::ok, value};
}

bool Db::expire(std::string_view key, Instant when, ExpireCondition condition, Instant now) {
  Shard& shard = shard_of(key);
  bool sooner = false;
  {
    std::lock_guard lock(shard.mutex);
    Entry* entry = live(shard, key, now);
    if (!entry) return false;
    Instant current = entry->expires_at;  // `never`: no expiry, an infinite one to GT and LT
    if (condition.nx && current != never) return false;
    if (condition.xx && current == never) return false;
    if (condition.gt && (current == never || when <= current)) return false;
    if (condition.lt && current != never && when >= current) return false;
    if (when <= now) {
      // Already past: Redis deletes the key rather than keep it to expire.
      erase(shard, shard.entries.find(key));
      return true;
    }
    sooner = set_expiry(shard, key, *entry, when);
  }
  tell_purge(sooner);
  return true;
}

std::optional<Instant> Db::expiry(std::string_view key, Instant now) {
  Shard& shard = shard_of(key);
  std::lock_guard lock(shard.mutex);
  Entry* entry = live(shard, key, now);
  if (!entry) return std::nullopt;
  return entry->expires_at;
}

std::size_t Db::size() {
  std::size_t total = 0;
  for (std::size_t i = 0; i < count_; ++i) {
    std::lock_guard lock(shards_[i].mutex);
    total += shards_[i].entries.size();
  }
  return total;
}

Instant Db::purge_expired(Instant now) {
  purge_at_.store(never.time_since_epoch().count());
  Instant next = never;
  for (std::size_t i = 0; i < count_; ++i) {
    Shard& shard = shards_[i];
    std::lock_guard lock(shard.mutex);
    while (!shard.expiries.empty() && expired(shard.expiries.begin()->first, now)) {
      auto record = shard.expiries.begin();
      auto at = shard.entries.find(record->second);
      shard.expiries.erase(record);  // the entry's own record: it has only one
      if (at != shard.entries.end()) {
        at->second.expires_at = never;  // its record is gone already
        shard.entries.erase(at);
      }
    }
    if (!shard.expiries.empty()) next = std::min(next, due(shard.expiries.begin()->first));
  }
  purge_at_.store(next.time_since_epoch().count());
  return next;
}

}  // namespace redis
