// Preparing the pristine copy; see submission.hpp. Files are rewritten only
// when their content changes, so that grading the next submission rebuilds
// only what differs.
#include "submission.hpp"

#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "child_process.hpp"
#include "console_report.hpp"
#include "sandbox.hpp"
#include "test_catalog.hpp"
#include "usage_error.hpp"

namespace grader {

namespace fs = std::filesystem;

namespace {

// Folders that are never part of the course's sources: version control,
// build directories (meson writes meson-private/ into each), caches.
bool skipped_folder(const fs::path& dir) {
  std::string name = dir.filename().string();
  std::error_code error;
  return name == ".git" || name == "__pycache__" || name == "node_modules" ||
         fs::exists(dir / "meson-private", error) || fs::exists(dir / "build.ninja", error) ||
         (name == "book" && dir.parent_path().filename() == "book");
}

// Every regular file under `root`, relative, skipping what skipped_folder
// says and `exclude` (the grader's own work folder, should it be inside).
// Symbolic links are listed in `links` and never followed.
std::set<std::string> files_under(const fs::path& root, std::vector<std::string>* links = nullptr,
                                  const fs::path& exclude = {}) {
  std::set<std::string> files;
  std::error_code error;
  if (!fs::is_directory(root, error)) return files;
  fs::recursive_directory_iterator it(root, fs::directory_options::none, error), end;
  for (; it != end; it.increment(error)) {
    if (error) break;
    const fs::directory_entry& entry = *it;
    fs::file_status status = entry.symlink_status(error);
    std::string relative = fs::relative(entry.path(), root, error).generic_string();
    if (fs::is_symlink(status)) {
      if (links) links->push_back(relative);
      continue;
    }
    if (fs::is_directory(status)) {
      bool excluded = !exclude.empty() && fs::equivalent(entry.path(), exclude, error);
      if (excluded || skipped_folder(entry.path())) it.disable_recursion_pending();
      continue;
    }
    if (fs::is_regular_file(status)) files.insert(relative);
  }
  return files;
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool same_content(const fs::path& a, const fs::path& b) {
  std::error_code error;
  if (!fs::is_regular_file(b, error)) return false;
  if (fs::file_size(a, error) != fs::file_size(b, error)) return false;
  return read_all(a) == read_all(b);
}

// Puts `from`'s content at `to` unless it is there already.
void place(const fs::path& from, const fs::path& to) {
  if (same_content(from, to)) return;
  fs::create_directories(to.parent_path());
  std::error_code error;
  fs::remove(to, error);
  fs::copy_file(from, to);
  fs::permissions(to, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                          fs::perms::others_read);
}

// A student may upload the repository itself or a folder holding it.
fs::path repository_in(const fs::path& submission) {
  std::error_code error;
  if (fs::is_directory(submission / "chapters", error)) return submission;
  std::vector<fs::path> candidates;
  for (const fs::directory_entry& entry : fs::directory_iterator(submission, error))
    if (entry.is_directory(error) && fs::is_directory(entry.path() / "chapters", error))
      candidates.push_back(entry.path());
  if (candidates.size() == 1) return candidates.front();
  throw UsageError("the submission " + submission.string() +
                   " holds no chapters/ folder (nor one folder that does): is it the course "
                   "repository?");
}

// What the copy should hold: relative path -> where its content comes from.
using Plan = std::map<std::string, fs::path>;

void plan_hidden_tests(Plan& plan, const CopyRequest& request) {
  if (request.hidden.empty()) return;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(request.hidden, error)) {
    std::string name = entry.path().filename().string();
    bool known = std::find(request.chapters.begin(), request.chapters.end(), name) !=
                 request.chapters.end();
    if (entry.is_directory(error) && !known)
      throw UsageError("--hidden " + request.hidden + ": '" + name +
                       "' is not a chapter; hidden tests go in folders named like the "
                       "chapters (" + request.chapters.front() + ", ...)");
  }
  int found = 0;
  for (const std::string& chapter : request.chapters) {
    std::vector<std::string> sources = test_sources_in(request.hidden + "/" + chapter);
    for (const std::string& source : sources)
      plan["tests/hidden/" + chapter + "/" + fs::path(source).filename().string()] = source;
    found += static_cast<int>(sources.size());
  }
  if (found == 0)
    throw UsageError("--hidden " + request.hidden + " holds no NN-slug/*.cpp test sources");
}

// The file meson reads to build the hidden tests: one line per source.
void write_hidden_lists(const fs::path& copy, const CopyRequest& request, const Plan& plan) {
  for (const std::string& chapter : request.chapters) {
    std::string list;
    std::string prefix = "tests/hidden/" + chapter + "/";
    for (const auto& [path, from] : plan)
      if (path.rfind(prefix, 0) == 0) list += path.substr(prefix.size()) + "\n";
    fs::path file = copy / prefix / "sources.txt";
    std::error_code error;
    if (list.empty()) {
      fs::remove(file, error);
      continue;
    }
    if (fs::exists(file, error) && read_all(file) == list) continue;
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << list;
    // meson re-reads its files when meson.build is newer than its build.
    fs::last_write_time(copy / "tests/hidden/meson.build", fs::file_time_type::clock::now(), error);
  }
}

// The copy and its build directories hold the reference solution, the
// hidden tests and the binary that runs them against it: open to their
// owner alone (the grader, or the builder that builds them). Sandboxed
// tests run from the run area's copies of their binaries, and need
// nothing here.
void close_to_others(const fs::path& folder) {
  std::error_code error;
  fs::permissions(folder, fs::perms::owner_all, error);
}

// The builder (sandbox.hpp) owns `folder` (and, `recursive`, all in it):
// the build writes only there, and reads the copy through it.
void hand_to_builder(const fs::path& folder, bool recursive, uid_t builder) {
  auto give = [builder](const fs::path& path) {
    if (lchown(path.c_str(), builder, builder) != 0)
      throw UsageError("cannot hand " + path.string() + " to the builder: " +
                       std::strerror(errno));
  };
  give(folder);
  if (!recursive) return;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(folder, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error))
    give(it->path());
  if (error) throw UsageError("cannot hand " + folder.string() + " to the builder: " + error.message());
}

// Whether every user may walk to `path`: every folder on the way, itself
// included, open to others' search.
bool searchable_by_others(const fs::path& path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error);
  for (fs::path at = absolute; !error; at = at.parent_path()) {
    if ((fs::status(at, error).permissions() & fs::perms::others_exec) == fs::perms::none)
      return false;
    if (at == at.root_path()) return true;
  }
  return false;
}

// Whether every user can reach `path`: every folder on the way searchable
// by others, and the last one readable.
bool open_to_everyone(const fs::path& path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error);
  fs::perms last = fs::status(absolute, error).permissions();
  if (error || (last & fs::perms::others_read) == fs::perms::none) return false;
  for (fs::path at = absolute; at != at.root_path(); at = at.parent_path())
    if ((fs::status(at, error).permissions() & fs::perms::others_exec) == fs::perms::none)
      return false;
  return true;
}

void remove_stale(const fs::path& copy, const Plan& plan) {
  for (const std::string& path : files_under(copy)) {
    if (plan.count(path) || fs::path(path).filename() == "sources.txt") continue;
    std::error_code error;
    fs::remove(copy / path, error);
  }
}

// What a build of the student's code keeps beside each object for the
// integrity scan: the preprocessed unit and the assembly (integrity.hpp).
// GCC's -save-temps cannot take a precompiled header, so there is none.
const std::vector<std::string> compiler_output_options = {"-Db_pch=false", "-Dcpp_args=-save-temps=obj"};

// Whether an existing build directory keeps them: its options as meson
// lists them.
bool keeps_compiler_output(const std::string& build_dir) {
  std::ifstream in(fs::path(build_dir) / "meson-info" / "intro-buildoptions.json");
  nlohmann::json options = nlohmann::json::parse(in, nullptr, false);
  if (!options.is_array()) return false;
  bool pch_off = false, save_temps = false;
  for (const nlohmann::json& option : options) {
    std::string name = option.value("name", "");
    if (name == "b_pch") pch_off = option.contains("value") && option["value"] == false;
    if (name == "cpp_args") save_temps = option.contains("value") &&
                                         option["value"] == nlohmann::json::array({"-save-temps=obj"});
  }
  return pch_off && save_temps;
}

void configure(const std::string& copy, const std::string& build_dir, Sanitizer sanitizer,
               bool compiler_output) {
  std::error_code error;
  if (fs::exists(fs::path(build_dir) / "build.ninja", error)) {
    if (!compiler_output || keeps_compiler_output(build_dir)) return;
    // A work folder prepared before the scan read the compiler's output.
    ChildRequest reconfigure;
    reconfigure.argv = {"meson", "configure", build_dir};
    reconfigure.argv.insert(reconfigure.argv.end(), compiler_output_options.begin(),
                            compiler_output_options.end());
    ChildOutcome outcome = run_child(reconfigure);
    if (outcome.exit_code != 0)
      throw UsageError("meson configure " + build_dir + " failed:\n" + outcome.output);
    return;
  }
  fs::remove_all(build_dir, error);
  print_progress("configuring " + build_dir + " for the pristine copy of the course");
  ChildRequest setup;
  setup.argv = {"meson", "setup", build_dir, copy, "-Dexperiments=false", "-Dself_checks=false"};
  if (sanitizer != Sanitizer::none) {
    setup.argv.push_back("-Db_sanitize=" + sanitizer_name(sanitizer));
    setup.argv.push_back("-Db_lundef=false");
  }
  if (compiler_output)
    setup.argv.insert(setup.argv.end(), compiler_output_options.begin(), compiler_output_options.end());
  ChildOutcome outcome = run_child(setup);
  if (outcome.exit_code != 0)
    throw UsageError("meson setup " + build_dir + " failed:\n" + outcome.output);
}

}  // namespace

bool is_build_file(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  return name == "meson.build" || name == "meson.options" || name == "meson_options.txt" ||
         fs::path(path).extension() == ".wrap";
}

std::vector<std::string> starter_files(const std::string& course_root, const std::string& chapter) {
  std::vector<std::string> files;
  for (const std::string& path : files_under(fs::path(course_root) / "chapters" / chapter))
    if (!is_build_file(path)) files.push_back("chapters/" + chapter + "/" + path);
  return files;
}

PreparedCopy prepare_copy(const CopyRequest& request) {
  fs::path course = request.course_root;
  fs::path submission = repository_in(request.submission);
  fs::path copy = fs::path(request.workdir) / "course";
  std::error_code error;
  fs::create_directories(copy, error);
  if (error) throw UsageError("cannot make " + copy.string() + ": " + error.message());

  PreparedCopy prepared;
  prepared.source_root = copy.string();
  Plan plan;
  std::set<std::string> course_files = files_under(course, nullptr, request.workdir);
  for (const std::string& path : course_files) plan[path] = course / path;

  std::set<std::string> starter;
  for (const std::string& chapter : request.chapters)
    for (const std::string& path : starter_files(course.string(), chapter)) starter.insert(path);

  std::vector<std::string> links;
  std::set<std::string> submitted = files_under(submission, &links, request.workdir);
  for (const std::string& path : starter) {
    if (submitted.count(path)) {
      plan[path] = submission / path;
      prepared.student_files.push_back((copy / path).string());
    } else {
      prepared.missing.push_back(path);
    }
  }
  for (const std::string& path : submitted) {
    if (starter.count(path)) continue;
    if (!course_files.count(path))
      prepared.other_changes.push_back({path, "added (not used)"});
    else if (!same_content(submission / path, course / path))
      prepared.other_changes.push_back(
          {path, is_build_file(path) ? "changed (not used: build files are the course's own)"
                                     : "changed (not used)"});
  }
  for (const std::string& link : links)
    prepared.other_changes.push_back({link, "a symbolic link (not used)"});

  plan_hidden_tests(plan, request);
  for (const auto& [path, from] : plan) place(from, copy / path);
  remove_stale(copy, plan);
  write_hidden_lists(copy, request, plan);
  if (!request.hidden.empty() && open_to_everyone(request.hidden))
    prepared.warnings.push_back("the hidden tests in " + request.hidden +
                                " can be read by every user of this machine, a sandboxed test "
                                "included: chmod -R go-rwx it (the copy's are closed)");
  fs::path solutions = course / "solutions";
  if (request.sandbox && fs::is_directory(solutions, error) && open_to_everyone(solutions))
    prepared.warnings.push_back("the reference solutions in " + solutions.string() +
                                " can be read by every user of this machine, so a sandboxed test "
                                "could print them into its output: chmod -R go-rwx it (the "
                                "copy's are closed)");

  // The builder must be able to walk to the work folder: every folder on
  // the way open to others' search.
  prepared.builder = request.sandbox && searchable_by_others(request.workdir);
  if (request.sandbox && !prepared.builder)
    prepared.warnings.push_back("the builder cannot reach " + request.workdir +
                                " (a folder on the way is closed to other users), so the build "
                                "runs as root, with its time limits only: choose a --workdir "
                                "others may walk to, such as one under /var/tmp");
  // build-none is the plain build: the name it had before there were modes,
  // so that a work folder prepared then is still used.
  for (Sanitizer mode : request.modes) {
    std::string dir = (fs::path(request.workdir) / ("build-" + sanitizer_name(mode))).string();
    configure(copy.string(), dir, mode, true);
    close_to_others(dir);
    if (prepared.builder) hand_to_builder(dir, true, request.builder_uid);
    prepared.build_dirs.push_back(dir);
  }
  prepared.builder_uid = request.builder_uid;
  // The hidden tests' reference is the course's code alone: built by root,
  // where no build of the student's can read it.
  if (!request.hidden.empty()) {
    std::string dir = (fs::path(request.workdir) / "build-reference").string();
    configure(copy.string(), dir, Sanitizer::none, false);
    close_to_others(dir);
    prepared.reference_build_dir = dir;
  }
  close_to_others(copy);
  if (prepared.builder) hand_to_builder(copy, false, request.builder_uid);
  return prepared;
}

}  // namespace grader
