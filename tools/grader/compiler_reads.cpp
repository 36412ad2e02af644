// Files the compiler read; see compiler_reads.hpp.
#include "compiler_reads.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <stdexcept>

#include "child_process.hpp"

namespace grader {

namespace fs = std::filesystem;

namespace {

bool under(const fs::path& path, const fs::path& folder) {
  auto mismatch = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
  return mismatch.first == folder.end();
}

// Each object's dependencies, as ninja lists them: an object's header
// line ("obj.o: #deps 12, ...") then its files, indented.
struct Read {
  fs::path object;  // relative to the build directory
  fs::path file;    // absolute
};

std::vector<Read> compiler_reads(const std::string& build_dir) {
  fs::path build = fs::weakly_canonical(build_dir);
  ChildRequest deps;
  deps.argv = {"ninja", "-C", build_dir, "-t", "deps"};
  deps.head_limit = std::size_t{1} << 30;  // all of it: a cut list would hide a file
  ChildOutcome outcome = run_child(deps);
  if (outcome.exit_code != 0)
    throw std::runtime_error("ninja -t deps in " + build_dir + " failed: " + outcome.output);
  std::vector<Read> reads;
  std::istringstream lines(outcome.output);
  fs::path object;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("    ", 0) != 0) {
      if (auto colon = line.find(": #deps"); colon != std::string::npos) object = line.substr(0, colon);
      continue;
    }
    fs::path file = line.substr(4);
    reads.push_back({object, (file.is_absolute() ? file : build / file).lexically_normal()});
  }
  return reads;
}

}  // namespace

std::vector<std::string> files_read_outside(const std::string& build_dir,
                                            const std::vector<std::string>& allowed) {
  std::vector<fs::path> roots = {fs::weakly_canonical(build_dir), "/usr"};
  for (const std::string& folder : allowed) roots.push_back(fs::weakly_canonical(folder));
  std::set<std::string> outside;
  for (const Read& read : compiler_reads(build_dir)) {
    bool fine = false;
    for (const fs::path& root : roots) fine = fine || under(read.file, root);
    if (!fine) outside.insert(read.file.string());
  }
  return {outside.begin(), outside.end()};
}

std::vector<std::string> files_read_from_the_answers(const std::string& build_dir,
                                                     const std::string& course) {
  fs::path root = fs::weakly_canonical(course);
  fs::path solutions = root / "solutions";
  fs::path hidden = root / "tests" / "hidden";
  std::set<std::string> found;
  for (const Read& read : compiler_reads(build_dir)) {
    std::string object = read.object.generic_string();
    bool reference = object.starts_with("solutions/") || object.starts_with("tests/solutions-") ||
                     object.starts_with("tests/hidden/solutions-");
    bool hidden_test = object.starts_with("tests/hidden/");
    // A hidden test's own files (sources.txt, meson.build) are no secret
    // to its binary; the folder is the instructor's, not the student's.
    if ((under(read.file, solutions) && !reference) || (under(read.file, hidden) && !hidden_test))
      found.insert(object + ": " + read.file.string());
  }
  return {found.begin(), found.end()};
}

}  // namespace grader
