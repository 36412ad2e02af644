// How a failed check shows the values it compared. doctest prints what
// has an operator<<, and "{?}" for the rest; these teach it the standard
// containers the course's tests compare, so that a failure reads
//
//   CHECK( polls == std::vector<int>{2, 3, 4, 5, 6} )
//   values: CHECK( {2, 3, 3, 4, 5} == {2, 3, 4, 5, 6} )
//
// instead of "{?} == {?}".
#pragma once

#include <doctest/doctest.h>

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
