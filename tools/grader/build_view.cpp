// The file system a submission's build sees; see build_view.hpp.
#include "build_view.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace grader {

namespace fs = std::filesystem;

namespace {

// What of the copy a student's build reads: its own chapter, the tests and
// their support, the model checker, the precompiled headers, the fallback
// libraries, and the programs built on a chapter's runtime (the capstone
// server, the bench, the experiments). Not solutions/, src/ (the one
// source the solutions are made from), book/ (which shows them, folded)
// nor the scripts.
constexpr const char* course_parts[] = {"chapters", "tests",    "tools",       "model",
                                        "subprojects", "capstone", "bench", "experiments"};

// The top of a merged-/usr system: links into /usr, bound or linked alike.
constexpr const char* system_links[] = {"bin", "sbin", "lib", "lib32", "lib64", "libx32"};

// The devices a compiler may open.
constexpr const char* devices[] = {"null", "zero", "full", "random", "urandom"};

bool under(const fs::path& path, const fs::path& folder) {
  auto mismatch = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
  return mismatch.first == folder.end();
}

// ninja's escapes in a path: "$ " a space, "$:" a colon, "$$" a dollar.
std::vector<std::string> ninja_paths(const std::string& text) {
  std::vector<std::string> paths;
  std::string path;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '$' && i + 1 < text.size()) {
      path += text[++i];
    } else if (text[i] == ' ') {
      if (!path.empty()) paths.push_back(path);
      path.clear();
    } else {
      path += text[i];
    }
  }
  if (!path.empty()) paths.push_back(path);
  return paths;
}

// The files ninja stats to decide whether build.ninja must be made again:
// if one were missing from the view, ninja would try to run meson there.
std::vector<fs::path> regeneration_inputs(const fs::path& build_dir) {
  std::ifstream in(build_dir / "build.ninja");
  if (!in) throw std::runtime_error("cannot read " + (build_dir / "build.ninja").string());
  const std::string head = "build build.ninja: REGENERATE_BUILD ";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(head, 0) != 0) continue;
    std::vector<fs::path> inputs;
    for (const std::string& path : ninja_paths(line.substr(head.size()))) {
      if (path == "|" || path == "||") continue;
      fs::path input = path;
      inputs.push_back((input.is_absolute() ? input : build_dir / input).lexically_normal());
    }
    return inputs;
  }
  throw std::runtime_error("no REGENERATE_BUILD line in " + (build_dir / "build.ninja").string());
}

bool is_folder(const fs::path& path) {
  std::error_code error;
  return fs::is_directory(fs::symlink_status(path, error));
}

}  // namespace

BuildView submission_build_view(const std::string& copy_root, const std::string& build_root,
                                bool hidden_tests) {
  fs::path copy = fs::weakly_canonical(copy_root);
  fs::path build = fs::weakly_canonical(build_root);
  BuildView view;
  view.binds = {{"/usr", false}, {"/etc", false}};
  for (const char* part : course_parts)
    if (is_folder(copy / part)) view.binds.push_back({(copy / part).string(), false});
  view.binds.push_back({build.string(), true});

  fs::path hidden = copy / "tests" / "hidden";
  BuildView::Mask hidden_mask{hidden.string(), {}};
  for (const fs::path& input : regeneration_inputs(build)) {
    bool bound = false;
    for (const BuildView::Bind& bind : view.binds) bound = bound || under(input, bind.path);
    if (!bound) view.binds.push_back({input.string(), false});  // alone: a file ninja checks
    if (under(input, hidden)) hidden_mask.keep.push_back(input.string());
  }
  if (hidden_tests) {
    // The student's runtime is built in the view without the hidden tests,
    // before them; here it is read-only, so that nothing compiled with
    // them lands in what the visible tests link.
    if (is_folder(build / "chapters")) view.binds.push_back({(build / "chapters").string(), false});
  } else {
    if (is_folder(hidden)) view.masks.push_back(hidden_mask);
    // The hidden tests' objects, built against the student's runtime.
    if (is_folder(build / "tests" / "hidden"))
      view.masks.push_back({(build / "tests" / "hidden").string(), {}});
  }
  return view;
}

void ViewPlan::add_dirs(const std::string& inside) {
  fs::path path = inside;
  std::vector<std::string> missing;
  for (fs::path at = path; !at.empty() && at != at.root_path(); at = at.parent_path()) {
    if (std::find(made_.begin(), made_.end(), at.string()) != made_.end()) break;
    missing.push_back(at.string());
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    made_.push_back(*it);
    steps_.push_back({ViewStep::make_dir, staging_ + *it, {}});
  }
}

ViewPlan::ViewPlan(const BuildView& view, const std::string& staging) : staging_(staging) {
  for (const char* name : system_links) {
    fs::path top = fs::path("/") / name;
    std::error_code error;
    fs::file_status status = fs::symlink_status(top, error);
    if (fs::is_symlink(status)) {
      steps_.push_back({ViewStep::make_link, staging_ + top.string(), fs::read_symlink(top, error).string()});
    } else if (fs::is_directory(status)) {
      add_dirs(top.string());
      steps_.push_back({ViewStep::bind, staging_ + top.string(), top.string()});
    }
  }
  add_dirs("/dev");
  steps_.push_back({ViewStep::tmpfs, staging_ + "/dev", "mode=755,size=64k"});
  for (const char* device : devices) {
    std::string path = std::string("/dev/") + device;
    steps_.push_back({ViewStep::make_file, staging_ + path, {}});
    steps_.push_back({ViewStep::bind_writable, staging_ + path, path});
  }
  add_dirs("/tmp");
  steps_.push_back({ViewStep::tmpfs, staging_ + "/tmp", "mode=1777,size=4g"});
  // Folders before the files inside them, and a folder before what is
  // bound inside it.
  std::vector<BuildView::Bind> binds = view.binds;
  std::sort(binds.begin(), binds.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  for (const BuildView::Bind& bind : binds) {
    std::error_code error;
    if (!fs::exists(fs::symlink_status(bind.path, error))) continue;  // nothing to show
    bool folder = is_folder(bind.path);
    if (folder) {
      add_dirs(bind.path);
    } else {
      add_dirs(fs::path(bind.path).parent_path().string());
      steps_.push_back({ViewStep::make_file, staging_ + bind.path, {}});
    }
    steps_.push_back({bind.writable ? ViewStep::bind_writable : ViewStep::bind, staging_ + bind.path,
                      bind.path});
  }
  for (const BuildView::Mask& mask : view.masks) {
    // Inside a bound folder: what was made there belongs to it no more.
    std::erase_if(made_, [&](const std::string& made) { return under(made, mask.folder); });
    made_.push_back(mask.folder);
    steps_.push_back({ViewStep::tmpfs, staging_ + mask.folder, "mode=755,size=64k"});
    for (const std::string& kept : mask.keep) {
      std::error_code error;
      if (!fs::exists(fs::symlink_status(kept, error))) continue;
      add_dirs(fs::path(kept).parent_path().string());
      steps_.push_back({ViewStep::make_file, staging_ + kept, {}});
      steps_.push_back({ViewStep::bind, staging_ + kept, kept});
    }
  }
}

bool ViewPlan::enter() const {
  // Nothing mounted here is seen outside, nor outlives the build.
  if (unshare(CLONE_NEWNS) != 0 || mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    return false;
  if (mount("tmpfs", staging_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=755,size=1m") != 0)
    return false;
  for (const ViewStep& step : steps_) {
    const char* path = step.path.c_str();
    bool done = true;
    switch (step.kind) {
      case ViewStep::make_dir:
        done = mkdir(path, 0755) == 0 || access(path, F_OK) == 0;
        break;
      case ViewStep::make_file: {
        int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        done = fd >= 0 || access(path, F_OK) == 0;
        if (fd >= 0) close(fd);
        break;
      }
      case ViewStep::make_link:
        done = symlink(step.source.c_str(), path) == 0;
        break;
      case ViewStep::bind:
        // Read-only: a bind takes the source's flags, a remount changes them.
        done = mount(step.source.c_str(), path, nullptr, MS_BIND, nullptr) == 0 &&
               mount(nullptr, path, nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV,
                     nullptr) == 0;
        break;
      case ViewStep::bind_writable:
        done = mount(step.source.c_str(), path, nullptr, MS_BIND, nullptr) == 0;
        break;
      case ViewStep::tmpfs:
        done = mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, step.source.c_str()) == 0;
        break;
    }
    if (!done) return false;
  }
  // The staging folder becomes the root; the old root, stacked under it by
  // pivot_root(".", "."), is detached: nothing else of the machine is left.
  return chdir(staging_.c_str()) == 0 && syscall(SYS_pivot_root, ".", ".") == 0 &&
         umount2(".", MNT_DETACH) == 0 && chdir("/") == 0;
}

std::string view_staging_folder() {
  const std::string folder = "/run/grader-views";
  if (mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST)
    throw std::system_error(errno, std::generic_category(), "cannot make " + folder);
  struct stat info;
  if (lstat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != 0)
    throw std::runtime_error(folder + " is not a folder of root's");
  chmod(folder.c_str(), 0700);
  return folder;
}

}  // namespace grader
