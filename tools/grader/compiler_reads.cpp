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

}  // namespace

std::vector<std::string> files_read_outside(const std::string& build_dir,
                                            const std::vector<std::string>& allowed) {
  fs::path build = fs::weakly_canonical(build_dir);
  std::vector<fs::path> roots = {build, "/usr"};
  for (const std::string& folder : allowed) roots.push_back(fs::weakly_canonical(folder));
  ChildRequest deps;
  deps.argv = {"ninja", "-C", build_dir, "-t", "deps"};
  deps.head_limit = std::size_t{1} << 30;  // all of it: a cut list would hide a file
  ChildOutcome outcome = run_child(deps);
  if (outcome.exit_code != 0)
    throw std::runtime_error("ninja -t deps in " + build_dir + " failed: " + outcome.output);
  std::set<std::string> outside;
  std::istringstream lines(outcome.output);
  std::string line;
  while (std::getline(lines, line)) {
    // Dependencies are the indented lines under each object's header.
    if (line.rfind("    ", 0) != 0) continue;
    fs::path file = line.substr(4);
    file = (file.is_absolute() ? file : build / file).lexically_normal();
    bool fine = false;
    for (const fs::path& root : roots) fine = fine || under(file, root);
    if (!fine) outside.insert(file.string());
  }
  return {outside.begin(), outside.end()};
}

}  // namespace grader
