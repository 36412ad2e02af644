// Turns the chapters typed on the command line ("1", "01", "1-3",
// "02-wakers") into chapters of the manifest.
#pragma once

#include <string>
#include <vector>

namespace grader {

// Returns the selected chapters in course order, each once. Throws
// UsageError naming the known chapters when one does not exist.
std::vector<std::string> select_chapters(const std::vector<std::string>& known,
                                         const std::vector<std::string>& typed);

}  // namespace grader
