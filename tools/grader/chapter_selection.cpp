// Chapter selection; see chapter_selection.hpp.
#include "chapter_selection.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "manifest.hpp"
#include "usage_error.hpp"

namespace grader {

namespace {

std::optional<int> as_number(const std::string& text) {
  if (text.empty() || text.size() > 4 || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoi(text);
}

std::string list_of(const std::vector<std::string>& known) {
  std::string list;
  for (const std::string& chapter : known) list += (list.empty() ? "" : ", ") + chapter;
  return list;
}

[[noreturn]] void unknown(const std::string& typed, const std::vector<std::string>& known) {
  throw UsageError("unknown chapter '" + typed + "'; the chapters are: " + list_of(known));
}

// The chapter numbers one typed word stands for.
std::vector<int> numbers_in(const std::string& typed, const std::vector<std::string>& known) {
  if (std::find(known.begin(), known.end(), typed) != known.end())
    return {*as_number(chapter_number(typed))};
  auto dash = typed.find('-');
  if (dash == std::string::npos) {
    if (auto n = as_number(typed)) return {*n};
    unknown(typed, known);
  }
  auto first = as_number(typed.substr(0, dash));
  auto last = as_number(typed.substr(dash + 1));
  if (!first || !last || *first > *last) unknown(typed, known);
  std::vector<int> numbers;
  for (int n = *first; n <= *last; ++n) numbers.push_back(n);
  return numbers;
}

}  // namespace

std::vector<std::string> select_chapters(const std::vector<std::string>& known,
                                         const std::vector<std::string>& typed) {
  if (typed.empty()) return known;
  std::set<int> wanted;
  for (const std::string& word : typed) {
    for (int n : numbers_in(word, known)) {
      auto matches = [n](const std::string& c) { return as_number(chapter_number(c)) == n; };
      if (std::none_of(known.begin(), known.end(), matches)) unknown(word, known);
      wanted.insert(n);
    }
  }
  std::vector<std::string> selected;
  for (const std::string& chapter : known)
    if (wanted.count(as_number(chapter_number(chapter)).value_or(-1))) selected.push_back(chapter);
  return selected;
}

}  // namespace grader
