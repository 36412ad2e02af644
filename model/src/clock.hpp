// Vector clocks: entry u is how far thread u had got (its count of
// operations) when something happened; one event happens before another
// when the other's clock has reached the first's entry. loom's rt/vv.rs.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

namespace model::detail {

inline constexpr int max_threads = 8;  // loom allows 5, main included

struct Clock {
  std::array<std::uint32_t, max_threads> at{};

  // Take in everything `other` knows (an acquire, a join, a lock).
  void join(const Clock& other) {
    for (int u = 0; u < max_threads; ++u) at[u] = std::max(at[u], other.at[u]);
  }
  // Whether thread u's event at `time` happens before this point.
  bool knows(int u, std::uint32_t time) const { return time <= at[u]; }
};

}  // namespace model::detail
