// How a failed check shows the values it compared. doctest prints what
// has an operator<<, and "{?}" for the rest; these teach it the standard
// containers the course's tests compare, so that a failure reads
//
//   CHECK( polls == std::vector<int>{2, 3, 4, 5, 6} )
//   values: CHECK( {2, 3, 3, 4, 5} == {2, 3, 4, 5, 6} )
//
// instead of "{?} == {?}"; and durations in one unit, seconds, so that
//
//   CHECK( slept < 1h + 1ms )
//   values: CHECK( 3600.001 s < 3600.001 s )
//
// reads as the equality it is (not "3600001000000ns < 3600001ms").
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rt_test::show {

template <class Sequence>
doctest::String sequence(const Sequence& values) {
  doctest::String text = "{";
  bool first = true;
  for (const auto& value : values) {
    if (!first) text += ", ";
    text += doctest::toString(value);
    first = false;
  }
  return text + "}";
}

// A duration as seconds, with as many decimals as it needs (to the
// nanosecond): "3600.001 s", "0.000004 s", "-2 s".
template <class Rep, class Period>
doctest::String seconds(std::chrono::duration<Rep, Period> duration) {
  std::int64_t nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(duration).count();
  std::string sign = nanos < 0 ? "-" : "";
  std::uint64_t magnitude = nanos < 0 ? 0 - static_cast<std::uint64_t>(nanos) : static_cast<std::uint64_t>(nanos);
  std::string fraction = std::to_string(magnitude % 1'000'000'000);
  fraction = std::string(9 - fraction.size(), '0') + fraction;
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  std::string text = sign + std::to_string(magnitude / 1'000'000'000) + (fraction.empty() ? "" : "." + fraction) + " s";
  return text.c_str();
}

}  // namespace rt_test::show

namespace doctest {

template <class T, class Allocator>
struct StringMaker<std::vector<T, Allocator>> {
  static String convert(const std::vector<T, Allocator>& values) { return rt_test::show::sequence(values); }
};

template <class T, class Allocator>
struct StringMaker<std::deque<T, Allocator>> {
  static String convert(const std::deque<T, Allocator>& values) { return rt_test::show::sequence(values); }
};

template <class Rep, class Period>
struct StringMaker<std::chrono::duration<Rep, Period>> {
  static String convert(const std::chrono::duration<Rep, Period>& duration) { return rt_test::show::seconds(duration); }
};

template <class T>
struct StringMaker<std::optional<T>> {
  static String convert(const std::optional<T>& value) {
    return value ? "optional(" + toString(*value) + ")" : String("nullopt");
  }
};

template <class First, class Second>
struct StringMaker<std::pair<First, Second>> {
  static String convert(const std::pair<First, Second>& pair) {
    return "(" + toString(pair.first) + ", " + toString(pair.second) + ")";
  }
};

}  // namespace doctest
