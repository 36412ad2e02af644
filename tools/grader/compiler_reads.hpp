// What the compiler read. ninja keeps every object's dependencies as the
// compiler listed them (its depfiles): each header an #include reached,
// whatever its spelling. A submission's build may read the course's copy,
// its build directory and the system's headers (/usr); anything else (an
// #include "/etc/shadow", a file the student added and named by its
// absolute path in the upload) is refused before any test runs, so that
// no test can print it; so is an #include, by a relative path inside the
// copy, of the reference solution or the hidden tests. Mirrors no part of
// Tokio: it is the grader's own.
#pragma once

#include <string>
#include <vector>

namespace grader {

// Every file the objects of `build_dir` were compiled from that lies under
// none of `allowed` (absolute folders) nor /usr. Throws std::runtime_error
// when ninja cannot say.
std::vector<std::string> files_read_outside(const std::string& build_dir,
                                            const std::vector<std::string>& allowed);

// Inside the copy, what the student's code may not read: the reference
// solutions (read only by the reference's own objects, under solutions/
// and the solutions-* test targets) and the hidden tests (read only by the
// hidden tests' objects, under tests/hidden/). Each file read against
// that, as "object: file", for a copy whose root is `course`.
std::vector<std::string> files_read_from_the_answers(const std::string& build_dir,
                                                     const std::string& course);

}  // namespace grader
