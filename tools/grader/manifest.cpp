// Reads the course manifest; see manifest.hpp.
#include "manifest.hpp"

#include <fstream>
#include <sstream>

#include "usage_error.hpp"

namespace grader {

Manifest read_manifest(const std::string& builddir) {
  std::string path = builddir + "/course-manifest.txt";
  std::ifstream in(path);
  if (!in)
    throw UsageError("cannot read " + path + ": is '" + builddir +
                     "' a configured build directory? (meson setup " + builddir + ")");
  Manifest manifest;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "source_root") std::getline(words >> std::ws, manifest.source_root);
    if (key == "chapters")
      for (std::string chapter; words >> chapter;) manifest.chapters.push_back(chapter);
  }
  if (manifest.source_root.empty() || manifest.chapters.empty())
    throw UsageError(path + " does not name a source root and chapters");
  return manifest;
}

std::string chapter_number(const std::string& chapter) {
  return chapter.substr(0, 2);
}

}  // namespace grader
