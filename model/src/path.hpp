// The choices of one execution, and how the search moves to the next one.
// A choice is a thread switch or the store a load reads; an execution
// replays the recorded prefix and appends what it meets beyond it, and the
// exhaustive search then advances the last choice that has an alternative
// left, depth first. loom's rt/path.rs; the replay string is its text.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace model::detail {

class Path {
 public:
  struct Choice {
    std::uint32_t options;
    std::uint32_t taken;
  };

  // Starts an execution: the recorded prefix is replayed from the start.
  void rewind() { position_ = 0; }

  // One of `options` (at least 2) alternatives; a random search draws it,
  // the exhaustive one takes the first it has not tried. -1 when the
  // execution did not go as recorded (the body is not deterministic).
  int choose(std::uint32_t options);
  // A choice the caller makes itself (PCT's priorities), recorded.
  int record(std::uint32_t options, std::uint32_t taken);

  // To the next execution, depth first; false when none is left.
  bool advance();
  void randomize(std::uint64_t seed) {
    random_ = true;
    rng_.seed(seed);
    choices_.clear();
  }
  std::uint32_t draw(std::uint32_t bound) { return static_cast<std::uint32_t>(rng_() % bound); }

  // The choices made so far in this execution, as text, and back.
  std::string encode() const;
  bool decode(const std::string& text);

 private:
  std::vector<Choice> choices_;
  std::size_t position_ = 0;
  bool random_ = false;
  std::mt19937_64 rng_;
};

}  // namespace model::detail
