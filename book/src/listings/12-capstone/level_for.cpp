unsigned Wheel::level_for(std::uint64_t elapsed, std::uint64_t when) {
  // The highest bit in which the two differ says how far apart they are;
  // or-ing in the low 6 bits puts anything within one level-0 span at
  // level 0.
  std::uint64_t masked = (elapsed ^ when) | (slots_per_level - 1);
  if (masked >= max_duration) masked = max_duration - 1;  // beyond the top: the top level
  unsigned significant = 63 - static_cast<unsigned>(std::countl_zero(masked));
  return significant / bits_per_level;
}
