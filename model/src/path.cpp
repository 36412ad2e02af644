// The choice log and its replay string; see path.hpp.
#include "path.hpp"

namespace model::detail {

int Path::choose(std::uint32_t options) {
  if (position_ < choices_.size()) {
    Choice& choice = choices_[position_++];
    if (choice.options == 0 && choice.taken < options) choice.options = options;  // from a replay string
    if (choice.options != options) return -1;
    return static_cast<int>(choice.taken);
  }
  std::uint32_t taken = random_ ? draw(options) : 0;
  choices_.push_back({options, taken});
  ++position_;
  return static_cast<int>(taken);
}

int Path::record(std::uint32_t options, std::uint32_t taken) {
  if (position_ < choices_.size()) {
    Choice& choice = choices_[position_++];
    if (choice.options == 0 && choice.taken < options) choice.options = options;  // from a replay string
    if (choice.options != options) return -1;
    return static_cast<int>(choice.taken);
  }
  choices_.push_back({options, taken});
  ++position_;
  return static_cast<int>(taken);
}

bool Path::advance() {
  choices_.resize(position_);
  while (!choices_.empty() && choices_.back().taken + 1 >= choices_.back().options) choices_.pop_back();
  if (choices_.empty()) return false;
  ++choices_.back().taken;
  return true;
}

// The text: one letter per choice, a for the first option, b for the
// second, ..., Z for the 52nd; a letter repeated k > 2 times is written
// once followed by k. "a12ba" is twelve a's, then b, then a. A prefix
// "v1." names the format.
namespace {
char letter(std::uint32_t taken) {
  return taken < 26 ? static_cast<char>('a' + taken) : static_cast<char>('A' + (taken - 26));
}
int value(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return c - 'A' + 26;
  return -1;
}
}  // namespace

std::string Path::encode() const {
  std::string text = "v1.";
  for (std::size_t i = 0; i < position_ && i < choices_.size();) {
    std::size_t run = 1;
    while (i + run < position_ && choices_[i + run].taken == choices_[i].taken) ++run;
    text += letter(choices_[i].taken);
    if (run > 2) {
      text += std::to_string(run);
    } else if (run == 2) {
      text += letter(choices_[i].taken);
    }
    i += run;
  }
  return text;
}

bool Path::decode(const std::string& text) {
  if (text.rfind("v1.", 0) != 0) return false;
  choices_.clear();
  for (std::size_t i = 3; i < text.size();) {
    int taken = value(text[i++]);
    if (taken < 0) return false;
    std::size_t run = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') run = run * 10 + static_cast<std::size_t>(text[i++] - '0');
    if (run == 0) run = 1;
    // The number of options is not in the text: replay checks only that
    // the choice exists.
    for (std::size_t k = 0; k < run; ++k) choices_.push_back({0, static_cast<std::uint32_t>(taken)});
  }
  return true;
}

}  // namespace model::detail
