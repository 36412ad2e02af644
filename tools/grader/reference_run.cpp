// Hidden tests judged against the reference solution; see reference_run.hpp.
#include "reference_run.hpp"

#include <fmt/format.h>

#include <vector>

#include "protocol.hpp"

namespace grader {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// "what<TAB>value" as the report shows it: OBSERVE(what) saw value.
std::string shown(const std::string& line) {
  std::size_t tab = line.find('\t');
  if (tab == std::string::npos) return fmt::format("'{}'", line);
  return fmt::format("OBSERVE({}) saw {}", line.substr(0, tab), line.substr(tab + 1));
}

}  // namespace

Reference take_reference(const std::string& binary, const DeclaredTest& test,
                         const RunSettings& settings, RunArea& area) {
  Reference reference;
  reference.seed = make_seed();
  RunSettings plain = settings;
  plain.sanitizer = Sanitizer::none;
  plain.diagnose_hangs = false;
  std::string first;
  for (int run = 0; run < 2; ++run) {
    SingleRun result = run_once(binary, test, plain, area, reference.seed, Whose::reference);
    if (result.verdict.status != Status::pass) {
      reference.problem = fmt::format(
          "the reference solution does not pass this hidden test ({}), so it has nothing to be "
          "compared with: the instructor should fix the test.\n{}",
          status_name(result.verdict.status), result.verdict.message);
      return reference;
    }
    if (run == 0) first = result.verdict.observations;
    else if (result.verdict.observations != first) {
      reference.problem =
          "two runs of this hidden test on the reference solution, with the same seed, observed "
          "different values, so it cannot be compared with: the instructor should make its "
          "observations depend on the seed alone.";
      return reference;
    }
  }
  reference.observations = first;
  return reference;
}

std::optional<std::string> observation_mismatch(const std::string& observed,
                                                const std::string& expected) {
  if (observed == expected) return std::nullopt;
  std::vector<std::string> seen = lines_of(observed), wanted = lines_of(expected);
  std::string head = "this hidden test's observations differ from the reference solution's";
  for (std::size_t i = 0; i < seen.size() && i < wanted.size(); ++i)
    if (seen[i] != wanted[i])
      return fmt::format("{}: observation {} of {}, {}, is not what the reference saw", head,
                         i + 1, wanted.size(), shown(seen[i]));
  return fmt::format("{}: it made {} observation{} where the reference made {}", head, seen.size(),
                     seen.size() == 1 ? "" : "s", wanted.size());
}

}  // namespace grader
