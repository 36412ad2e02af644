//@ file coop..
// RestoreOnPending: what a resource holds while it polls after spending a
// unit of the budget. Mirrors Tokio's RestoreOnPending in
// runtime/coop.rs; its destructor, which gives the unit back, is in
// coop.cpp beside poll_proceed, which makes one.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

namespace rt::coop::detail {

// What a resource holds while it polls after spending a unit: unless it
// says it made progress, the unit comes back when this goes away (an
// operation that ends up pending has cost nothing). Tokio's RestoreOnPending.
class RestoreOnPending {
 public:
  explicit RestoreOnPending(std::optional<std::uint8_t> before)
      : restores_(before.has_value()), before_(before.value_or(0)) {}
  // A moved-from one restores nothing: the unit is the moved-to one's.
  RestoreOnPending(RestoreOnPending&& other) noexcept
      : restores_(std::exchange(other.restores_, false)), before_(other.before_) {}
  RestoreOnPending& operator=(RestoreOnPending&&) = delete;
  ~RestoreOnPending();

  void made_progress() { made_progress_ = true; }

 private:
  // The budget before the unit was spent, when there was one. Kept as two
  // bytes, not as a std::optional: copying an optional the compiler wrote
  // byte by byte makes the processor wait for its stores (measured: a fifth
  // of a message's round trip on chapter 08's ping_pong).
  bool restores_;
  std::uint8_t before_;
  bool made_progress_ = false;
};

}  // namespace rt::coop::detail
