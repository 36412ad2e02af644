// The integrity scan of the compiled objects; see integrity.hpp (the
// sources' is source_scan.cpp).
#include "integrity.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "child_process.hpp"
#include "sanitizer_names.hpp"

namespace grader {

namespace {

// Symbols whose definition outside libc, the sanitizers and doctest can
// only be meant to take over what the test main or the grader relies on.
bool is_taken_over(const std::string& symbol, bool student_only) {
  static const std::set<std::string> libc = {
      "main",   "write", "writev", "read",  "_exit",  "_Exit",  "exit",    "abort",
      "getenv", "close", "dup2",   "fork",  "kill",   "raise",  "sigaction", "signal",
      "socket", "send",  "recv",   "fcntl", "atexit", "unsetenv", "setenv", "fstat",
      // what would watch the test main's strings, or its page of memory, go by
      "strlen", "strnlen", "strcmp", "strncmp", "memcpy", "memmove", "memset", "mmap",
      "getrandom", "syscall"};
  if (libc.count(symbol)) return true;
  for (const char* prefix : {"__tsan_", "__asan_", "__lsan_", "__ubsan_", "__msan_", "__sanitizer_"})
    if (symbol.starts_with(prefix)) return true;
  // The same hooks' C++ names, mangled: __tsan::OnReport is _ZN6__tsan8OnReport...
  if (symbol.starts_with("_Z"))
    for (const char* scope : {"6__tsan", "6__asan", "6__lsan", "7__ubsan", "6__msan", "11__sanitizer"})
      if (symbol.find(std::string("N") + scope) != std::string::npos) return true;
  return student_only && symbol.starts_with("_ZN7doctest");
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

// A replacement of the global allocation functions: what keeps every
// block reachable for LeakSanitizer, or counts on the heap behind the
// sanitizer's back. operator new and delete, mangled (_Znwm, _ZdlPvm...;
// a class's own operator new is _ZN...), and C's allocator.
std::string replaced_allocator(const std::string& symbol) {
  static const std::set<std::string> c_allocator = {
      "malloc", "free", "calloc", "realloc", "reallocarray", "aligned_alloc", "posix_memalign",
      "memalign", "valloc", "pvalloc", "malloc_usable_size"};
  if (c_allocator.count(symbol)) return symbol;
  if (symbol.starts_with("_Znw")) return "operator new";
  if (symbol.starts_with("_Zna")) return "operator new[]";
  if (symbol.starts_with("_Zdl")) return "operator delete";
  if (symbol.starts_with("_Zda")) return "operator delete[]";
  return "";
}

// The dynamic loader's look-ups: how a call to a sanitizer's annotation
// could be made without naming it to the linker.
bool is_loader_lookup(const std::string& symbol) {
  return symbol == "dlsym" || symbol == "dlvsym" || symbol == "dlopen" || symbol == "dlmopen";
}

// What one symbol of one object says, if anything. `student_only`: the
// object holds only the student's code (their runtime library).
std::string judge(const std::string& symbol, bool defined, bool student_only) {
  const SanitizerNames& sanitizer = SanitizerNames::installed();
  if (defined) {
    if (is_taken_over(symbol, student_only) || sanitizer.owned_by_runtime(symbol))
      return "defines '" + symbol + "', which belongs to libc, a sanitizer or doctest";
    if (std::string replaced = replaced_allocator(symbol); student_only && !replaced.empty())
      return "replaces the global allocation function '" + replaced + "' (" + symbol +
             "), which decides what a sanitizer sees";
    return "";
  }
  // A call the compiler did not put there: an annotation, a setting or a
  // report hook, which only silencing the sanitizer needs.
  if (sanitizer.owned_by_runtime(symbol) && !sanitizer.emitted_by_compiler(symbol))
    return "calls '" + symbol + "' of a sanitizer's runtime, which changes what it reports";
  // What the source scan leaves to this one when the student's files have
  // a function of the same name: rt::kill links to _ZN2rt4kill..., libc's
  // to kill.
  if (student_only && reaches_other_processes(symbol))
    return "calls " + symbol + "() (libc's, by the symbol it links to), which reaches other processes";
  if (student_only && is_loader_lookup(symbol))
    return "calls the dynamic loader's '" + symbol + "', which a runtime has no use for";
  return "";
}

// One nm for all the objects of a kind: a process per object would cost a
// student seconds per grade. Both what they define and what they call.
void scan_with_nm(const std::vector<std::string>& objects, bool student_only,
                  std::vector<Finding>& found) {
  if (objects.empty()) return;
  ChildRequest nm;
  nm.argv = {"nm", "-P", "-A", "-g"};
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
    // "object: symbol type value size", or "archive[member]: ..."; an
    // undefined symbol is "U", or "w"/"v" (weak) with no value.
    auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    std::string object = line.substr(0, colon);
    std::istringstream fields(line.substr(colon + 2));
    std::string symbol, type, value;
    fields >> symbol >> type >> value;
    bool defined = !(type == "U" || ((type == "w" || type == "v") && value.empty()));
    std::string what = judge(symbol, defined, student_only);
    if (!what.empty() && seen.insert({object, symbol}).second) found.push_back({object, what});
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
