// The grader's side of the test binary protocol; see protocol.hpp.
#include "protocol.hpp"

#include <cstdint>
#include <random>
#include <sstream>

namespace grader {

std::string make_token() {
  std::random_device random;  // the kernel's randomness on Linux
  std::ostringstream token;
  token << std::hex;
  for (int i = 0; i < 4; ++i) token << random();
  return token.str();
}

std::string make_seed() {
  std::random_device random;
  std::uint64_t seed = (std::uint64_t{random()} << 32) | random();
  return std::to_string(seed >> 1);  // below 2^63: any reader's integer holds it
}

namespace {

// What follows "<token> pass" (or "fail"): " <n>\n", then n bytes of
// observations, then the messages.
std::optional<Record> parse_at(const std::string& data, std::size_t start) {
  std::size_t end = data.find('\n', start);
  if (end == std::string::npos || data[start] != ' ') return std::nullopt;
  std::string count = data.substr(start + 1, end - start - 1);
  if (count.empty() || count.size() > 10 ||
      count.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  std::size_t size = std::stoul(count);
  if (data.size() - (end + 1) < size) return std::nullopt;
  Record record;
  record.observations = data.substr(end + 1, size);
  record.messages = data.substr(end + 1 + size);
  return record;
}

}  // namespace

std::optional<Record> parse_record(const std::string& data, const std::string& token) {
  // A failing record wins should both somehow be present.
  for (const char* verdict : {" fail", " pass"}) {
    std::string header = token + verdict;
    for (auto at = data.find(header); at != std::string::npos; at = data.find(header, at + 1)) {
      std::optional<Record> record = parse_at(data, at + header.size());
      if (!record) continue;
      record->passed = std::string(verdict) == " pass";
      return record;
    }
  }
  return std::nullopt;
}

}  // namespace grader
