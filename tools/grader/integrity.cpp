// The integrity scan; see integrity.hpp.
#include "integrity.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "child_process.hpp"

namespace grader {

namespace {

struct Rule {
  std::regex pattern;
  std::string what;  // "$1" is replaced by the first group
};

const std::vector<Rule>& source_rules() {
  static const std::vector<Rule> rules = {
      {std::regex(R"(#\s*(?:define|undef)\s+((?:CHECK|REQUIRE|TEST_CASE|SUBCASE|TEST_SUITE|FAIL|WARN|DOCTEST_)\w*|INFO|CAPTURE|MESSAGE|POINTS|main)\b)"),
       "redefines the test macro or name '$1'"},
      {std::regex(R"(#\s*include\s*[<"][^>"]*doctest)"), "includes doctest"},
      {std::regex(R"((GRADER_\w*|grader-sandbox|grader-token))"),
       "names the grader's internals ($1)"},
      {std::regex(R"(\b(__(?:tsan|asan|lsan|ubsan|msan|sanitizer)_\w+))"),
       "touches a sanitizer's hook ($1)"},
      {std::regex(R"(\b(fork|vfork|kill|killpg|tgkill|tkill|ptrace|setsid|setpgid|prctl|execv\w*|execl\w*|posix_spawn\w*|system|popen|getppid|dup2|dup3|close_range|process_vm_\w+)\s*\()"),
       "calls $1()"},
      {std::regex(R"(/proc\b|\bcmdline\b)"), "reads /proc"},
      {std::regex(R"(\b(__libc_argv|__libc_argc|_dl_argv|__environ|environ|program_invocation_\w+)\b)"),
       "reaches for the process's arguments or environment ($1)"},
      {std::regex(R"((__attribute__\s*\(\(\s*constructor|gnu::constructor|\.init_array|\.preinit_array))"),
       "runs code before main() ($1)"},
      {std::regex(R"(\bextern\s+"C"[^;{]*\b(write|read|_exit|exit|abort|getenv|close|main)\s*\()"),
       "declares libc's $1() itself"},
  };
  return rules;
}

// Blanks out comments, keeping line breaks so line numbers stay true.
std::string without_comments(const std::string& text) {
  std::string out = text;
  bool line = false, block = false, string = false;
  for (std::size_t i = 0; i < out.size(); ++i) {
    char c = out[i], next = i + 1 < out.size() ? out[i + 1] : '\0';
    if (line) {
      if (c == '\n') line = false; else out[i] = ' ';
    } else if (block) {
      if (c == '*' && next == '/') { block = false; out[i] = out[i + 1] = ' '; ++i; }
      else if (c != '\n') out[i] = ' ';
    } else if (string) {
      if (c == '\\') ++i; else if (c == '"' || c == '\n') string = false;
    } else if (c == '"') {
      string = true;
    } else if (c == '/' && next == '/') {
      line = true; out[i] = ' ';
    } else if (c == '/' && next == '*') {
      block = true; out[i] = out[i + 1] = ' '; ++i;
    }
  }
  return out;
}

std::string expand(std::string what, const std::smatch& match) {
  auto at = what.find("$1");
  if (at != std::string::npos) what.replace(at, 2, match[1].str());
  return what;
}

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

std::vector<Finding> scan_sources(const std::vector<std::string>& files) {
  std::vector<Finding> found;
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream raw;
    raw << in.rdbuf();
    std::istringstream lines(without_comments(raw.str()));
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
      ++number;
      for (const Rule& rule : source_rules()) {
        for (std::sregex_iterator it(line.begin(), line.end(), rule.pattern), end; it != end; ++it)
          found.push_back({file + ":" + std::to_string(number), expand(rule.what, *it)});
      }
    }
  }
  return found;
}

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
