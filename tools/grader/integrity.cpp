// The integrity scan of the compiled objects; see integrity.hpp (the
// sources' is source_scan.cpp).
#include "integrity.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "child_process.hpp"

namespace grader {

namespace {

// Symbols whose definition outside libc, the sanitizers and doctest can
// only be meant to take over what the test main or the grader relies on.
bool is_taken_over(const std::string& symbol, bool student_only) {
  static const std::set<std::string> libc = {
      "main",   "write", "writev", "read",  "_exit",  "_Exit",  "exit",    "abort",
      "getenv", "close", "dup2",   "fork",  "kill",   "raise",  "sigaction", "signal",
      "socket", "send",  "recv",   "fcntl", "atexit", "unsetenv", "setenv", "fstat"};
  if (libc.count(symbol)) return true;
  for (const char* prefix : {"__tsan_", "__asan_", "__lsan_", "__ubsan_", "__msan_", "__sanitizer_"})
    if (symbol.rfind(prefix, 0) == 0) return true;
  // The same hooks' C++ names, mangled: __tsan::OnReport is _ZN6__tsan8OnReport...
  if (symbol.rfind("_Z", 0) == 0)
    for (const char* scope : {"6__tsan", "6__asan", "6__lsan", "7__ubsan", "6__msan", "11__sanitizer"})
      if (symbol.find(std::string("N") + scope) != std::string::npos) return true;
  return student_only && symbol.rfind("_ZN7doctest", 0) == 0;
}

std::vector<std::string> objects_under(const std::string& dir) {
  std::vector<std::string> objects;
  std::error_code error;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, error);
       it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (error) break;
    if (it->path().extension() == ".o") objects.push_back(it->path().string());
  }
  return objects;
}

// One nm for all the objects of a kind: a process per object would cost a
// student seconds per grade.
void scan_with_nm(const std::vector<std::string>& objects, bool student_only,
                  std::vector<Finding>& found) {
  if (objects.empty()) return;
  ChildRequest nm;
  nm.argv = {"nm", "-P", "-A", "-g", "--defined-only"};
  nm.argv.insert(nm.argv.end(), objects.begin(), objects.end());
  nm.head_limit = 64 * 1024 * 1024;
  ChildOutcome outcome = run_child(nm);
  if (outcome.exit_code != 0)
    throw ScanError(std::string("cannot scan the objects: nm ") +
                    (outcome.exit_code < 0 ? "did not finish" : "failed") + ": " +
                    outcome.output.substr(0, 400));
  std::istringstream lines(outcome.output);
  std::set<std::pair<std::string, std::string>> seen;
  for (std::string line; std::getline(lines, line);) {
    // "object: symbol type value size", or "archive[member]: ..."
    auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    std::string object = line.substr(0, colon);
    std::string rest = line.substr(colon + 2);
    std::string symbol = rest.substr(0, rest.find(' '));
    if (is_taken_over(symbol, student_only) && seen.insert({object, symbol}).second)
      found.push_back({object, "defines '" + symbol + "', which belongs to libc, a sanitizer "
                                                      "or doctest"});
  }
}

}  // namespace

std::vector<Finding> scan_objects(const std::vector<std::string>& student_only,
                                  const std::vector<std::string>& shared) {
  std::vector<Finding> found;
  std::vector<std::string> objects;
  for (const std::string& dir : student_only) {
    std::vector<std::string> in_dir = objects_under(dir);
    objects.insert(objects.end(), in_dir.begin(), in_dir.end());
  }
  scan_with_nm(objects, true, found);
  objects.clear();
  for (const std::string& dir : shared) {
    std::vector<std::string> in_dir = objects_under(dir);
    objects.insert(objects.end(), in_dir.begin(), in_dir.end());
  }
  scan_with_nm(objects, false, found);
  return found;
}

}  // namespace grader
