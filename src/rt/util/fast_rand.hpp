//@ file stealing..
// FastRand: a small, fast, not cryptographic random number generator, for
// choosing where a worker starts stealing. Mirrors Tokio's util/rand.rs
// (an xorshift over two 32-bit words).
//
// Why random: if every idle worker tried worker 0 first, they would all
// contend on its ring while the others' rings waited.
#pragma once

#include <cstdint>
#include <random>

namespace rt::detail {

class FastRand {
 public:
  // Seeded from the operating system's entropy, once per worker.
  FastRand() {
    std::random_device device;
    one_ = device();
    two_ = device() | 1;  // the state must not be all zero
  }

  // A number in [0, n), for n > 0.
  std::uint32_t fastrand_n(std::uint32_t n) {
    // Multiply and keep the high half: maps the 32-bit value onto [0, n)
    // without a division.
    return static_cast<std::uint32_t>((std::uint64_t{fastrand()} * n) >> 32);
  }

 private:
  std::uint32_t fastrand() {
    std::uint32_t s1 = one_;
    std::uint32_t s0 = two_;
    s1 ^= s1 << 17;
    s1 = s1 ^ s0 ^ (s1 >> 7) ^ (s0 >> 16);
    one_ = s0;
    two_ = s1;
    return s0 + s1;
  }

  std::uint32_t one_;
  std::uint32_t two_;
};

}  // namespace rt::detail
