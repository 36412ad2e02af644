// The integrity scan of what the compiler saw and wrote for the student's
// code; see integrity.hpp. A submission's build keeps, beside each object,
// its preprocessed translation unit (.ii) and its assembly (.s)
// (-save-temps=obj, submission.cpp).
//
// The preprocessed unit is the source as the compiler took it: every line
// splice, carriage return and escape read, every macro expanded, each
// line's origin named by the preprocessor's line markers. The lines that
// come from a student's file are put back at their own line numbers and
// scanned with the source scan's rules, so that `ki##ll(...)` or a name
// made of an empty macro and two halves is found as what it became.
//
// In the assembly, the compiler writes a student's inline assembly between
// #APP and #NO_APP, after a marker naming where it came from. It never
// writes .incbin or .include itself, and honest inline assembly (a pause,
// a compiler barrier) holds instructions, not directives.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "integrity.hpp"

namespace grader {

namespace fs = std::filesystem;

namespace {

// The largest unit read: a chapter's tests in one unit are a few MB.
constexpr std::uintmax_t unit_limit = 256ull * 1024 * 1024;

// `# 12 "path" 1 3`: the line number, the path and the flags after it;
// false for any other line.
bool line_marker(const std::string& line, long& number, std::string& path, std::string* flags = nullptr) {
  if (line.size() < 4 || line[0] != '#' || line[1] != ' ') return false;
  std::size_t at = 2;
  if (!std::isdigit(static_cast<unsigned char>(line[at]))) return false;
  number = 0;
  while (at < line.size() && std::isdigit(static_cast<unsigned char>(line[at])))
    number = number * 10 + (line[at++] - '0');
  if (at + 1 >= line.size() || line[at] != ' ' || line[at + 1] != '"') return false;
  path.clear();
  for (at += 2; at < line.size() && line[at] != '"'; ++at) {
    if (line[at] == '\\' && at + 1 < line.size()) ++at;  // the preprocessor escapes \ and "
    path += line[at];
  }
  if (at >= line.size()) return false;
  if (flags) *flags = line.substr(at + 1);
  return true;
}

// The build directory an object folder is in: where build.ninja is. The
// compiler ran there, so the paths in its markers are relative to it.
fs::path build_dir_of(const fs::path& objects) {
  for (fs::path at = objects; !at.empty() && at != at.root_path(); at = at.parent_path()) {
    std::error_code error;
    if (fs::exists(at / "build.ninja", error)) return at;
  }
  return objects;
}

class CompilerOutputScan {
 public:
  explicit CompilerOutputScan(const std::vector<std::string>& student_files) {
    for (const std::string& file : student_files) students_[canonical(file)] = file;
  }

  void scan_folder(const std::string& folder, bool preprocessed) {
    std::error_code error;
    if (!fs::is_directory(folder, error)) return;
    fs::path build = build_dir_of(fs::weakly_canonical(folder));
    for (auto it = fs::recursive_directory_iterator(folder, error);
         !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
      if (!it->is_regular_file(error)) continue;
      std::string extension = it->path().extension().string();
      if (extension == ".s") assembly(it->path(), build);
      if (extension == ".ii" && preprocessed) unit(it->path(), build);
    }
    if (error) throw ScanError("cannot scan " + folder + ": " + error.message());
  }

  std::vector<Finding> findings() { return std::move(found_); }

 private:
  static std::string canonical(const fs::path& path) {
    std::error_code error;
    fs::path found = fs::weakly_canonical(path, error);
    return (error ? path : found).lexically_normal().string();
  }

  // The student's file a marker names, or "".
  std::string student_file(const fs::path& build, const std::string& marked) {
    if (marked.empty() || marked[0] == '<') return {};  // <built-in>, <command-line>
    fs::path path = marked;
    auto found = students_.find(canonical(path.is_absolute() ? path : build / path));
    return found == students_.end() ? std::string() : found->second;  // named as the source scan names it
  }

  std::ifstream open_output(const fs::path& path) {
    std::error_code error;
    std::uintmax_t size = fs::file_size(path, error);
    if (error) throw ScanError("cannot scan " + path.string() + ": " + error.message());
    if (size > unit_limit) throw ScanError("cannot scan " + path.string() + ": larger than 256 MiB");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ScanError("cannot scan " + path.string() + ": " + std::strerror(errno));
    return in;
  }

  void report(const std::string& where, std::string what) {
    Finding f{where, std::move(what)};
    for (const Finding& g : found_)
      if (g.where == f.where && g.what == f.what) return;
    found_.push_back(std::move(f));
  }

  // The lines of the unit that come from the student's files, each put
  // back at its own line, then scanned as the source is.
  void unit(const fs::path& path, const fs::path& build) {
    std::ifstream in = open_output(path);
    std::map<std::string, std::map<long, std::string>> lines;  // file -> line -> text
    std::string current;
    long number = 0;
    for (std::string line; std::getline(in, line);) {
      long marked = 0;
      std::string file;
      if (line_marker(line, marked, file)) {
        current = student_file(build, file);
        number = marked;
        continue;
      }
      if (!current.empty()) {
        std::string& text = lines[current][number];
        text += (text.empty() ? "" : " ") + line;
      }
      ++number;
    }
    std::map<std::string, std::string> texts;
    for (const auto& [file, numbered] : lines) {
      std::string& text = texts[file];
      long at = 1;
      for (const auto& [line_number, line] : numbered) {
        for (; at < line_number; ++at) text += '\n';
        text += line;
      }
    }
    std::vector<std::string> all;
    for (const auto& [file, text] : texts) all.push_back(text);
    std::set<std::string> own = own_functions(all);  // the unit's own rt::kill and the like
    for (const auto& [file, text] : texts)
      for (Finding& f : scan_source_text(text, file, own)) report(f.where, f.what);
  }

  void assembly(const fs::path& path, const fs::path& build) {
    std::ifstream in = open_output(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(std::move(line));
    // g++ names where each block of inline assembly comes from; clang++
    // does not, so its blocks are reported at the unit, and only their
    // directives.
    bool gcc = std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
      return line.find(".ident") != std::string::npos && line.find("\"GCC:") != std::string::npos;
    });
    bool in_block = false;
    bool expect_origin = false;
    std::string origin;  // the student's file:line the block came from, or ""
    for (const std::string& line : lines) {
      std::size_t start = line.find_first_not_of(" \t");
      std::string code = start == std::string::npos ? std::string() : line.substr(start);
      if (expect_origin) {
        expect_origin = false;
        long number = 0;
        std::string file, flags;
        // The compiler opens a block with where its text comes from:
        // `# 12 "file" 1`, never `# 0 "" 2`, which ends one.
        if (line_marker(code, number, file, &flags) && !file.empty() && flags == " 1") {
          std::string student = student_file(build, file);
          origin = student.empty() ? std::string() : student + ":" + std::to_string(number);
          continue;
        }
        // The compiler names the origin of every block it opens.
        report(path.string(), "imitates the compiler's markers of inline assembly (#APP)");
      }
      if (code == "#APP") {
        if (in_block && gcc) report(where(origin, path), "imitates the compiler's markers of inline assembly (#APP)");
        in_block = true;
        expect_origin = gcc;
        origin = gcc ? std::string() : path.string();
        continue;
      }
      if (code == "#NO_APP") {
        in_block = false;
        continue;
      }
      long number = 0;
      std::string file;
      if (in_block && gcc && line_marker(code, number, file)) {
        // `# 0 "" 2`: the student's text ends; what follows is the
        // compiler's own (.loc, labels) until #NO_APP.
        std::string student = student_file(build, file);
        origin = student.empty() ? std::string() : student + ":" + std::to_string(number);
        continue;
      }
      std::string directive = code.substr(0, code.find_first_of(" \t\"'"));
      if (directive == ".incbin") report(where(origin, path), "pastes a file into the binary (.incbin)");
      if (directive == ".include") report(where(origin, path), "makes the assembler read a file (.include)");
      if (in_block && !origin.empty() && directive.size() > 1 && directive[0] == '.' &&
          directive.back() != ':')
        report(origin, "writes an assembler directive in inline assembly (" + directive + ")");
    }
  }

  static std::string where(const std::string& origin, const fs::path& path) {
    return origin.empty() ? path.string() : origin;
  }

  std::map<std::string, std::string> students_;  // canonical path -> as given
  std::vector<Finding> found_;
};

}  // namespace

std::vector<Finding> scan_compiler_output(const std::vector<std::string>& object_dirs,
                                          const std::vector<std::string>& preprocessed_dirs,
                                          const std::vector<std::string>& student_files) {
  CompilerOutputScan scan(student_files);
  for (const std::string& dir : object_dirs) {
    bool preprocessed = std::find(preprocessed_dirs.begin(), preprocessed_dirs.end(), dir) !=
                        preprocessed_dirs.end();
    scan.scan_folder(dir, preprocessed);
  }
  return scan.findings();
}

}  // namespace grader
