// The grader's side of the test binary protocol; see protocol.hpp.
#include "protocol.hpp"

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

std::optional<Record> parse_record(const std::string& data, const std::string& token) {
  // A failing record wins should both somehow be present.
  for (const char* verdict : {" fail\n", " pass\n"}) {
    std::string header = token + verdict;
    auto at = data.find(header);
    if (at == std::string::npos) continue;
    Record record;
    record.passed = std::string(verdict) == " pass\n";
    record.messages = data.substr(at + header.size());
    return record;
  }
  return std::nullopt;
}

}  // namespace grader
