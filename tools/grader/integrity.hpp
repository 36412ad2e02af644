// The integrity report: what in a submission only cheating needs. The
// student's code runs inside the test binary, so it could, with effort,
// redefine doctest's macros, read the grader's channel, define libc's
// functions over the ones the test main uses, silence a sanitizer or reach
// for other processes. None of that is needed to write a runtime; all of it
// leaves a trace in the sources or the objects, and the grader lists it.
#pragma once

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace grader {

struct Finding {
  std::string where;  // file:line, or an object file
  std::string what;
};

// The scan could not complete (a file it cannot read, nm failing): the
// submission must not be scored, since what was not scanned may cheat.
struct ScanError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Scans the student's source files on their tokens (source_tokens.hpp):
// comments and literals are never read as code. Findings are reported at
// `file:line` with the path as given (a symbolic link under its own name).
// Throws ScanError.
std::vector<Finding> scan_sources(const std::vector<std::string>& files);
// One file's text, reported as `where:line`. `own`: the names of libc's
// process calls (kill, fork, ...) that the student's files declare as
// functions of their own namespaces (own_functions); their unqualified
// calls are left to the scan of the objects, which tells libc's `kill`
// from `rt::kill` by the symbol the call links to.
std::vector<Finding> scan_source_text(const std::string& text, const std::string& where,
                                      const std::set<std::string>& own = {});
std::set<std::string> own_functions(const std::vector<std::string>& texts);
// libc's calls that reach other processes (kill, fork, system, an exec...),
// by name: what both scans look for.
bool reaches_other_processes(const std::string& name);

// Scans what the compiler saw and wrote for the student's files, from the
// .ii and .s files that -save-temps=obj leaves beside the objects under
// `object_dirs` (compiler_output_scan.cpp): the lines of the preprocessed
// units that come from `student_files`, with every macro expanded, by the
// source scan's rules (only in `preprocessed_dirs`: one mode's are
// enough), and the assembly for .incbin and .include, and for directives
// in the student's inline assembly. Throws ScanError.
std::vector<Finding> scan_compiler_output(const std::vector<std::string>& object_dirs,
                                          const std::vector<std::string>& preprocessed_dirs,
                                          const std::vector<std::string>& student_files);

// Scans compiled objects under `dirs` (with nm): functions of libc, of the
// sanitizers or of doctest defined where only the student's code is built.
// `student_only` dirs hold nothing but the student's objects; in the others
// (test objects, which include the student's headers) doctest's own
// definitions are expected.
std::vector<Finding> scan_objects(const std::vector<std::string>& student_only,
                                  const std::vector<std::string>& shared);

}  // namespace grader
