// The keyspace (capstone/db.hpp): lazy expiry, the purge, and when the
// purge task is told to wake sooner.
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "capstone/db.hpp"

using namespace std::chrono_literals;
using redis::Db;
using redis::Instant;
using redis::never;

namespace {

Db::SetOptions expiring_at(Instant when) {
  Db::SetOptions options;
  options.expires_at = when;
  return options;
}

}  // namespace

TEST_CASE("the purge removes the expired keys, keeps the rest, and says when the next one expires") {
  for (std::size_t shards : {1, 16}) {
    CAPTURE(shards);
    Db db(shards);
    Instant t0{std::chrono::hours(1)};
    for (int i = 0; i < 100; ++i) {
      db.set("k" + std::to_string(i), "v", expiring_at(t0 + std::chrono::milliseconds(10 * (i % 4 + 1))), t0);
    }
    db.set("forever", "v", {}, t0);
    CHECK(db.size() == 101);
    CHECK(db.purge_expired(t0) == t0 + 11ms);  // the first expire at t0+10ms: gone just past it
    CHECK(db.size() == 101);
    CHECK(db.purge_expired(t0 + 21ms) == t0 + 31ms);
    CHECK(db.size() == 51);
    CHECK(db.purge_expired(t0 + 1h) == never);
    CHECK(db.size() == 1);
    CHECK(db.exists("forever", t0 + 1h));
  }
}

TEST_CASE("a key overwritten without an expiry is not purged at its old instant") {
  Db db;
  Instant t0{std::chrono::hours(1)};
  db.set("k", "old", expiring_at(t0 + 10ms), t0);
  db.set("k", "new", {}, t0);
  CHECK(db.purge_expired(t0 + 1s) == never);
  CHECK(db.read("k", t0 + 1s, [](std::string_view value) { CHECK(value == "new"); }));
}

TEST_CASE("an expired key is never seen, purged or not") {
  Db db;
  Instant t0{std::chrono::hours(1)};
  db.set("k", "v", expiring_at(t0 + 10ms), t0);
  CHECK(db.exists("k", t0 + 10ms));
  CHECK_FALSE(db.read("k", t0 + 11ms, [](std::string_view) { FAIL("an expired value was read"); }));
  CHECK(db.size() == 0);  // found expired, so removed
  CHECK(db.purge_expired(t0 + 11ms) == never);
}

TEST_CASE("the purge task is woken only for an expiry sooner than it planned") {
  Db db;
  int wakes = 0;
  db.on_sooner_expiry([&] { ++wakes; });
  Instant t0{std::chrono::hours(1)};
  db.set("a", "v", expiring_at(t0 + 100ms), t0);
  CHECK(wakes == 1);  // the purge had nothing to wait for
  CHECK(db.purge_expired(t0) == t0 + 101ms);
  db.set("b", "v", expiring_at(t0 + 200ms), t0);
  CHECK(wakes == 1);  // later than planned: the planned run will see it
  db.set("c", "v", expiring_at(t0 + 50ms), t0);
  CHECK(wakes == 2);
  CHECK(db.expire("b", t0 + 10ms, {}, t0));
  CHECK(wakes == 3);
  db.set("d", "v", {}, t0);
  CHECK(wakes == 3);
}
