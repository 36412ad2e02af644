// The sanitizers' own names and the compiler's instrumentation calls; see
// sanitizer_names.hpp.
#include "sanitizer_names.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#include "child_process.hpp"
#include "integrity.hpp"

namespace grader {

namespace {

std::string run_or_throw(std::vector<std::string> argv, const std::string& what) {
  ChildRequest request;
  request.argv = std::move(argv);
  request.head_limit = 64 * 1024 * 1024;
  request.timeout = std::chrono::seconds(60);
  ChildOutcome outcome = run_child(request);
  if (outcome.exit_code != 0) throw ScanError("cannot read " + what + ": " + outcome.output.substr(0, 400));
  return outcome.output;
}

struct Libraries {
  std::vector<std::string> sanitizers;  // libtsan, libasan, liblsan, libubsan...
  std::vector<std::string> system;      // libc, libm, libstdc++, libgcc_s
};

// The shared libraries the dynamic linker's cache names (ldconfig -p):
// "\tlibtsan.so.2 (libc6,x86-64) => /lib/x86_64-linux-gnu/libtsan.so.2".
Libraries installed_libraries() {
  std::string ldconfig = std::filesystem::exists("/sbin/ldconfig") ? "/sbin/ldconfig" : "ldconfig";
  std::istringstream lines(run_or_throw({ldconfig, "-p"}, "the shared libraries (ldconfig -p)"));
  Libraries found;
  for (std::string line; std::getline(lines, line);) {
    auto arrow = line.find(" => ");
    if (arrow == std::string::npos) continue;
    std::string name = line.substr(line.find_first_not_of(" \t"));
    name = name.substr(0, name.find(' '));
    std::string path = line.substr(arrow + 4);
    for (const char* lib : {"libtsan.so", "libasan.so", "liblsan.so", "libubsan.so", "libhwasan.so"})
      if (name.starts_with(lib)) found.sanitizers.push_back(path);
    for (const char* lib : {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1"})
      if (name == lib) found.system.push_back(path);
  }
  return found;
}

// Every name the libraries export, without its version ("malloc@@GLIBC_2.2.5").
std::set<std::string> exported(const std::vector<std::string>& libraries) {
  std::set<std::string> names;
  if (libraries.empty()) return names;
  std::vector<std::string> argv = {"nm", "-D", "-P", "--defined-only"};
  argv.insert(argv.end(), libraries.begin(), libraries.end());
  std::istringstream lines(run_or_throw(argv, "the sanitizer runtimes' symbols (nm -D)"));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.back() == ':') continue;  // "lib.so:" heads each library's list
    std::string name = line.substr(0, line.find_first_of(" @"));
    if (!name.empty()) names.insert(name);
  }
  return names;
}

// The sanitizer names in the compiler proper's own text: g++'s builtins
// (`__builtin___tsan_read4`) and its numbered families (`__asan_stack_malloc_%d`).
std::vector<std::string> names_in_compiler() {
  std::string cc1plus = run_or_throw({"g++", "-print-prog-name=cc1plus"}, "the compiler's path");
  while (!cc1plus.empty() && std::isspace(static_cast<unsigned char>(cc1plus.back()))) cc1plus.pop_back();
  std::vector<std::string> names;
  std::ifstream in(cc1plus, std::ios::binary);
  if (!in) return names;  // not g++ (clang's names are not read): every call is the student's
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto is_name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '%'; };
  for (const char* family : {"__tsan_", "__asan_", "__ubsan_", "__sanitizer_", "__lsan_"}) {
    for (std::size_t at = text.find(family); at != std::string::npos; at = text.find(family, at + 1)) {
      std::size_t end = at;
      while (end < text.size() && is_name_char(text[end])) ++end;
      names.push_back(text.substr(at, end - at));
    }
  }
  return names;
}

}  // namespace

const SanitizerNames& SanitizerNames::installed() {
  static const SanitizerNames names = [] {
    SanitizerNames read;
    Libraries libraries = installed_libraries();
    std::set<std::string> runtime = exported(libraries.sanitizers);
    std::set<std::string> system = exported(libraries.system);
    // An intercepted function (malloc, pthread_mutex_lock, operator new)
    // is exported by the runtime under its own name and as
    // `__interceptor_NAME`: the program's honest calls, not the runtime's own.
    std::set<std::string> intercepted;
    for (const std::string& name : runtime)
      for (const char* prefix : {"___interceptor_", "__interceptor_"})
        if (name.starts_with(prefix)) intercepted.insert(name.substr(std::string(prefix).size()));
    for (const std::string& name : runtime)
      if (!intercepted.count(name) && !system.count(name)) read.runtime_.insert(name);
    for (const std::string& name : names_in_compiler()) {
      if (auto numbered = name.find("%d"); numbered != std::string::npos)
        read.emitted_numbered_.insert(name.substr(0, numbered));
      else
        read.emitted_.insert(name);
    }
    return read;
  }();
  return names;
}

bool SanitizerNames::emitted_by_compiler(const std::string& name) const {
  if (emitted_.count(name)) return true;
  for (const std::string& prefix : emitted_numbered_) {
    if (!name.starts_with(prefix) || name.size() == prefix.size()) continue;
    bool digits = true;
    for (std::size_t i = prefix.size(); i < name.size(); ++i) digits = digits && std::isdigit(static_cast<unsigned char>(name[i]));
    if (digits) return true;
  }
  return false;
}

}  // namespace grader
