// What the compiler read. ninja keeps every object's dependencies as the
// compiler listed them (its depfiles): each header an #include reached,
// whatever its spelling. A submission's build may read the course's copy,
// its build directory and the system's headers (/usr); anything else (an
// #include "/etc/shadow", a file the student added and named by its
// absolute path in the upload) is refused before any test runs, so that
// no test can print it. Mirrors no part of Tokio: it is the grader's own.
#pragma once

#include <string>
#include <vector>

namespace grader {

// Every file the objects of `build_dir` were compiled from that lies under
// none of `allowed` (absolute folders) nor /usr. Throws std::runtime_error
// when ninja cannot say.
std::vector<std::string> files_read_outside(const std::string& build_dir,
                                            const std::vector<std::string>& allowed);

}  // namespace grader
