// How the grader drives the sanitizers; see sanitizer.hpp.
#include "sanitizer.hpp"

#include <cstdlib>
#include <sstream>

namespace grader {

Sanitizer sanitizer_from_name(const std::string& name) {
  if (name == "thread") return Sanitizer::thread;
  if (name == "address") return Sanitizer::address;
  return Sanitizer::none;
}

std::string sanitizer_name(Sanitizer s) {
  switch (s) {
    case Sanitizer::thread:
      return "thread";
    case Sanitizer::address:
      return "address";
    case Sanitizer::none:
      break;
  }
  return "none";
}

std::string mode_name(Sanitizer s) {
  return s == Sanitizer::none ? "plain" : sanitizer_name(s);
}

std::string mode_phrase(Sanitizer s) {
  switch (s) {
    case Sanitizer::thread:
      return "under ThreadSanitizer";
    case Sanitizer::address:
      return "under AddressSanitizer";
    case Sanitizer::none:
      break;
  }
  return "plain";
}

std::vector<Sanitizer> every_mode() {
  return {Sanitizer::none, Sanitizer::thread, Sanitizer::address};
}

std::string modes_label(const std::vector<Sanitizer>& modes) {
  if (modes.size() == 1) return sanitizer_name(modes.front());
  std::string label;
  for (Sanitizer mode : modes) label += (label.empty() ? "" : "+") + mode_name(mode);
  return label;
}

namespace {

bool starts_report(const std::string& line) {
  static const char* const markers[] = {
      "WARNING: ThreadSanitizer", "ERROR: ThreadSanitizer", "ERROR: AddressSanitizer",
      "ERROR: LeakSanitizer",     "runtime error:",         "ERROR: UndefinedBehaviorSanitizer"};
  for (const char* marker : markers)
    if (line.find(marker) != std::string::npos) return true;
  return false;
}

// Every option that could hide a report, set explicitly. The sanitizers
// read the program's own __tsan_default_options() / __asan_default_options()
// first and the environment last, so these override anything compiled into
// the student's code; the caller's own *SAN_OPTIONS are not used either.
namespace options {
constexpr const char* common =
    "exitcode=66 halt_on_error=1 abort_on_error=0 log_path=stderr log_to_syslog=0 "
    "suppressions= print_suppressions=0 symbolize=1 verbosity=0 allow_user_segv_handler=1 "
    "handle_segv=1 handle_abort=1";
constexpr const char* thread =
    "report_bugs=1 report_thread_leaks=1 report_destroy_locked=1 report_mutex_bugs=1 "
    "report_signal_unsafe=1 report_atomic_races=1 force_seq_cst_atomics=0 "
    "ignore_noninstrumented_modules=0 ignore_interceptors_accesses=0 detect_deadlocks=1 "
    "second_deadlock_stack=1 die_after_fork=1";
constexpr const char* address =
    "detect_leaks=1 detect_odr_violation=2 detect_container_overflow=1 "
    "allocator_may_return_null=0 alloc_dealloc_mismatch=1 new_delete_type_mismatch=1 "
    // Its memory limit: a plain run's is its address space (sandbox.hpp),
    // which ASan reserves terabytes of. ThreadSanitizer has none that works.
    "hard_rss_limit_mb=4096";
constexpr const char* leak = "report_objects=0 use_unaligned=0 use_globals=1 use_stacks=1 "
                             "use_registers=1 use_tls=1 use_root_regions=1";
}  // namespace options

std::string joined(const char* a, const char* b) {
  return std::string(a) + " " + b;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> sanitizer_environment(Sanitizer s) {
  // Set for every run, so that nothing the caller exported reaches a test.
  std::vector<std::pair<std::string, std::string>> env = {
      {"TSAN_OPTIONS", ""}, {"ASAN_OPTIONS", ""}, {"LSAN_OPTIONS", ""}, {"UBSAN_OPTIONS", ""}};
  switch (s) {
    case Sanitizer::thread:
      env[0].second = joined(options::common, options::thread);
      break;
    case Sanitizer::address:
      env[1].second = joined(options::common, options::address);
      env[2].second = joined(options::common, options::leak);
      break;
    case Sanitizer::none:
      break;
  }
  env[3].second = "halt_on_error=1 print_stacktrace=1 suppressions= exitcode=66";
  return env;
}

std::string find_sanitizer_report(const std::string& output) {
  constexpr int report_lines = 15;
  std::istringstream in(output);
  std::string line, report;
  int taken = 0;
  bool inside = false;
  while (taken < report_lines && std::getline(in, line)) {
    inside = inside || starts_report(line);
    if (!inside) continue;
    report += line + "\n";
    ++taken;
  }
  return report;
}

}  // namespace grader
