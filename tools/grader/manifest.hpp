// The course manifest meson writes to <builddir>/course-manifest.txt: where
// the sources are and which chapters exist, in order.
#pragma once

#include <string>
#include <vector>

namespace grader {

struct Manifest {
  std::string source_root;
  std::vector<std::string> chapters;  // "01-executor", "02-wakers", ...
};

// Throws UsageError when the file is missing or malformed.
Manifest read_manifest(const std::string& builddir);

// "01" for "01-executor": the number used in target names.
std::string chapter_number(const std::string& chapter);

}  // namespace grader
