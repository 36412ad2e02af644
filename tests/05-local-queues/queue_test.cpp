// Chapter 05: a worker's ring, by itself: first in, first out; a full
// ring keeps its older half and moves the newer half, with the new task,
// to the global queue; the indices wrap at 2^32.
#include <cstdint>
#include <limits>
#include <vector>

#include "fake_tasks.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "rt/scheduler/inject.hpp"
#include "rt/scheduler/multi_thread/queue.hpp"

using rt::detail::Header;
using rt::detail::Inject;
using rt::detail::LocalQueue;
using rt::detail::Pushed;

namespace {

std::vector<std::size_t> range(std::size_t from, std::size_t to) {
  std::vector<std::size_t> ids;
  for (std::size_t i = from; i < to; ++i) ids.push_back(i);
  return ids;
}

}  // namespace

TEST_CASE("a worker's ring hands its tasks back oldest first" * POINTS(2)) {
  FakeTasks tasks(10);
  Inject inject;
  LocalQueue<8> ring;
  CHECK(ring.pop() == nullptr);
  for (std::size_t i = 0; i < 5; ++i) CHECK(ring.push_back_or_overflow(tasks[i], inject) == Pushed::local);
  CHECK(tasks.id(ring.pop()) == 0);
  CHECK(tasks.id(ring.pop()) == 1);
  // Three left; five more fill the ring exactly, its slots wrapping.
  for (std::size_t i = 5; i < 10; ++i) CHECK(ring.push_back_or_overflow(tasks[i], inject) == Pushed::local);
  CHECK(ring.len() == 8);
  CHECK(ring.remaining_slots() == 0);
  CHECK(tasks.drain(ring) == range(2, 10));
  CHECK(ring.is_empty());
  CHECK(inject.is_empty());
}

TEST_CASE("a full ring of 256 moves its newer half and the new task (129 in all) to the global queue" * POINTS(2)) {
  FakeTasks tasks(300);
  Inject inject;
  LocalQueue<> ring;
  for (std::size_t i = 0; i < 256; ++i) REQUIRE(ring.push_back_or_overflow(tasks[i], inject) == Pushed::local);
  CHECK(inject.is_empty());
  CHECK(ring.push_back_or_overflow(tasks[256], inject) == Pushed::overflow);
  CHECK(inject.len() == 129);
  CHECK(ring.len() == 128);
  // The ring goes on as before, the older half first.
  CHECK(ring.push_back_or_overflow(tasks[257], inject) == Pushed::local);
  std::vector<std::size_t> kept = range(0, 128);
  kept.push_back(257);
  CHECK(tasks.drain(ring) == kept);
  // The global queue has the newer half, oldest first, then the new task.
  CHECK(tasks.drain(inject) == range(128, 257));
}

TEST_CASE("a ring's indices wrap around at 2^32" * POINTS(1)) {
  FakeTasks tasks(20);
  Inject inject;
  // Three pushes before the indices wrap.
  LocalQueue<8> ring(std::numeric_limits<std::uint32_t>::max() - 2);
  for (std::size_t i = 0; i < 8; ++i) REQUIRE(ring.push_back_or_overflow(tasks[i], inject) == Pushed::local);
  CHECK(ring.len() == 8);
  CHECK(ring.push_back_or_overflow(tasks[8], inject) == Pushed::overflow);
  CHECK(ring.len() == 4);
  CHECK(tasks.drain(inject) == range(4, 9));
  for (std::size_t i = 9; i < 13; ++i) CHECK(ring.push_back_or_overflow(tasks[i], inject) == Pushed::local);
  std::vector<std::size_t> expected = range(0, 4);
  for (std::size_t i = 9; i < 13; ++i) expected.push_back(i);
  CHECK(tasks.drain(ring) == expected);
  CHECK(ring.is_empty());
}
