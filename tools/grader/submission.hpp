// An instructor's run: the student's repository is not built as it is.
// The grader keeps a pristine copy of the course, puts the student's
// versions of exactly the starter's files into it (the files that exist in
// the course's chapters/NN-slug/, build files excepted), and builds that.
// Build files, tests, the test main and the grader are always the course's
// own; every other file the student changed is reported, never used.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "sanitizer.hpp"

namespace grader {

struct ChangedFile {
  std::string path;  // relative to the repository's root
  std::string how;   // "changed", "added", "ignored: ..."
};

struct PreparedCopy {
  std::string source_root;  // the copy, ready to build
  std::vector<std::string> build_dirs;  // configured for it, one per mode of the request
  std::vector<std::string> student_files;  // in the copy, as taken from the submission
  std::vector<ChangedFile> other_changes;  // in the submission, not used
  std::vector<std::string> missing;        // starter files the submission lacks
  std::vector<std::string> warnings;       // for the instructor, before grading
  bool builder = false;  // the builder (sandbox.hpp) owns the copy and its builds
  uid_t builder_uid = 0;
  // With hidden tests: where they are built against the reference
  // solution, root's alone (the builder cannot read it); else empty.
  std::string reference_build_dir;
};

struct CopyRequest {
  std::string course_root;  // the pristine course
  std::vector<std::string> chapters;  // every chapter of the course
  std::string submission;   // the student's repository (or the course itself)
  std::string hidden;       // an instructor's hidden tests, or empty
  std::string workdir;      // holds course/ and build-<sanitizer>/ for each mode
  std::vector<Sanitizer> modes = {Sanitizer::none};
  bool sandbox = false;     // tests will run as another user
  uid_t builder_uid = 0;    // who builds, when sandboxed (sandbox.hpp's RunUser)
};

// Throws UsageError when the submission or the copy cannot be prepared.
PreparedCopy prepare_copy(const CopyRequest& request);

// The starter's files of one chapter, relative to the course root, build
// files excepted: what a submission may provide.
std::vector<std::string> starter_files(const std::string& course_root, const std::string& chapter);

// meson.build and friends: never taken from a submission.
bool is_build_file(const std::string& path);

}  // namespace grader
