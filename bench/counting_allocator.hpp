// A counting allocator: every call of the global operator new, counted while
// counting is on. Linked into each benchmark program, it gives the column
// "allocations per unit" (a spawn that allocates once shows 1.0).
#pragma once

#include <cstdint>

namespace bench::allocations {

void start();           // zero the count, and count from now on
std::uint64_t stop();   // stop counting; the allocations since start()

}  // namespace bench::allocations
