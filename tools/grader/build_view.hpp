// BuildView: the file system a submission's build sees. The build runs in
// a mount namespace of its own whose root is an empty tmpfs holding only
// what the view binds in: the system's programs, libraries and headers
// (/usr, /etc), a /dev of five devices, an empty /tmp, the parts of the
// course's copy a student's build needs, read-only, and its own build
// directory. The reference solutions (solutions/, and src/ and book/,
// which hold them too), the hidden tests, the reference's builds, other
// runs' copies and the grader's run area are not in it at all: a compiler
// asked for one of them, by #include, .incbin or anything else, finds no
// such file. Only the meson.build files (and the like) that ninja checks
// before it builds anything are shown of the folders left out.
#pragma once

#include <string>
#include <vector>

namespace grader {

struct BuildView {
  struct Bind {
    std::string path;  // absolute; the same path inside the view
    bool writable = false;
  };
  // A folder inside a bound one, shown empty but for `keep` (absolute
  // paths of files under it, bound read-only).
  struct Mask {
    std::string folder;
    std::vector<std::string> keep;
  };
  std::vector<Bind> binds;
  std::vector<Mask> masks;
};

// The view of one build of a submission's code: `build_dir` writable, of
// the copy at `copy` what the student's targets read, and the files of
// every other folder that ninja's check of build.ninja reads (the
// REGENERATE_BUILD line of `build_dir`/build.ninja). With `hidden_tests`,
// the copy's tests/hidden/ and the build's own are in it (a build of the
// hidden tests against the student's runtime, which must be built without
// them first: it is read-only there); without, they are masked.
// Throws std::runtime_error when build.ninja cannot be read.
BuildView submission_build_view(const std::string& copy, const std::string& build_dir,
                                bool hidden_tests);

// One step of entering a view. Every string is made before fork, so that
// the child, between fork and exec, only makes system calls.
struct ViewStep {
  enum Kind { make_dir, make_file, make_link, bind, bind_writable, tmpfs };
  Kind kind;
  std::string path;    // inside the staging folder
  std::string source;  // bind: the host's path; make_link: the target; tmpfs: mount options
};

class ViewPlan {
 public:
  ViewPlan() = default;
  // `staging`: an empty folder of root's, where the new root is put
  // together in the child's own mount namespace.
  ViewPlan(const BuildView& view, const std::string& staging);

  bool empty() const { return steps_.empty(); }

  // In the child, as root, between fork and exec: a mount namespace of its
  // own, the view put together, the view made the root. False when a step
  // fails; async-signal-safe.
  bool enter() const;

 private:
  void add_dirs(const std::string& inside);  // every folder on the way, once
  std::string staging_;
  std::vector<ViewStep> steps_;
  std::vector<std::string> made_;  // folders added already
};

// The folder ViewPlans are staged in: made, empty and root's alone, on
// first use. Throws std::system_error.
std::string view_staging_folder();

}  // namespace grader
