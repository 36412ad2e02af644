// The main() of every test binary. By hand it is an ordinary doctest
// binary; for the grader it speaks a small protocol:
//
//   --run NAME [--grader-token=TOKEN [--grader-seed=SEED]]
//                   run exactly that test case. The grader passes a fresh
//                   token and a pipe on descriptor 3; main() takes the token
//                   out of argv before anything else, then writes one record
//                   "<token> pass <n>\n<observations><messages>" (or
//                   "fail") to the pipe, with a raw system call that no
//                   function defined in the code under test can intercept.
//                   <observations>, n bytes, are the test's OBSERVE()s
//                   (observe.hpp), made with SEED; a hidden test's are
//                   compared with the reference solution's.
//   --list          one line per test case, for people:
//                   points<TAB>timeout<TAB>name.
//                   The grader never asks a binary for its tests: it reads
//                   them, and their points, from the test sources.
//
// The record, not the exit status or the console text, is what says a test
// passed: a test that exits half-way writes no record, and test code that
// prints "pass" cannot forge one because it never learns the token: it is
// not in the environment, and main() wipes it from argv (and so from
// /proc/self/cmdline) before any test code runs. Code that runs before
// main() could still read it from /proc or from glibc's internals: the
// grader's integrity scan looks for exactly that.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "escaped_exceptions.hpp"
#include "observe.hpp"

namespace {

// Where the record goes. Taken at the very start of main.
struct ResultChannel {
  int fd = -1;
  std::string token;
};

ResultChannel g_channel;

constexpr int channel_fd = 3;
constexpr const char token_option[] = "--grader-token=";
constexpr const char seed_option[] = "--grader-seed=";

// Takes the token out of argv[index], overwriting it in place so that it
// is gone from /proc/self/cmdline too.
ResultChannel take_result_channel(char* argument) {
  ResultChannel channel;
  char* token = argument + sizeof token_option - 1;
  channel.token = token;
  std::memset(token, 'x', std::strlen(token));
  struct stat info;
  if (fstat(channel_fd, &info) != 0 || !S_ISFIFO(info.st_mode)) return channel;
  channel.fd = channel_fd;
  // Processes the test starts must not inherit the channel.
  fcntl(channel.fd, F_SETFD, FD_CLOEXEC);
  return channel;
}

// write(2) as a raw system call: a `write` defined in the code under test
// replaces libc's for the whole binary, but cannot replace this.
long raw_write(int fd, const char* data, std::size_t size) {
#if defined(__x86_64__)
  long result;
  asm volatile("syscall"
               : "=a"(result)
               : "0"(1L /* SYS_write */), "D"(static_cast<long>(fd)), "S"(data), "d"(size)
               : "rcx", "r11", "memory");
  return result;
#elif defined(__aarch64__)
  register long x8 asm("x8") = 64;  // SYS_write
  register long x0 asm("x0") = fd;
  register const char* x1 asm("x1") = data;
  register std::size_t x2 asm("x2") = size;
  asm volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
  return x0;
#else
  return ::write(fd, data, size);
#endif
}

// What the record reporter learnt about the one test case it watched.
// Assertions may fail on any thread, hence the mutex.
struct Verdict {
  std::mutex mutex;
  int cases_run = 0;
  bool passed = true;
  std::string messages;
  std::vector<std::string> subcases;  // the SUBCASEs being run, outermost first
};

Verdict g_verdict;

// Messages beyond this are cut: the record is a summary, the full story is
// in the console output the grader captures.
constexpr std::size_t max_message_bytes = 32 * 1024;

void add_failure(const std::string& message) {
  std::lock_guard lock(g_verdict.mutex);
  g_verdict.passed = false;
  if (g_verdict.messages.size() >= max_message_bytes) return;
  g_verdict.messages += message + "\n";
  // A failure's message alone does not say which SUBCASE path it was on.
  std::string path;
  for (const std::string& subcase : g_verdict.subcases)
    path += (path.empty() ? "" : " > ") + subcase;
  if (!path.empty()) g_verdict.messages += "  in subcase: " + path + "\n";
}

// INFO() and CAPTURE() context, so a failure inside a loop says which turn.
std::string active_contexts() {
  std::ostringstream out;
  int count = doctest::IReporter::get_num_active_contexts();
  const doctest::IContextScope* const* contexts = doctest::IReporter::get_active_contexts();
  for (int i = 0; i < count; ++i) {
    out << "\n  logged: ";
    contexts[i]->stringify(&out);
  }
  return out.str();
}

std::string where(const char* file, int line) {
  return std::string(doctest::skipPathFromFilename(file)) + ":" + std::to_string(line) + ": ";
}

// The part of a failed assertion's message that depends on its kind.
std::string what_went_wrong(const doctest::AssertData& a) {
  using namespace doctest::assertType;
  std::string exception = a.m_exception.c_str();
  if (a.m_at & is_throws_as) {
    if (!a.m_threw) return "did not throw at all";
    return "threw a different exception: " + exception;
  }
  if (a.m_at & (is_throws | is_throws_with)) {
    if (!a.m_threw) return "did not throw at all";
    return "threw an exception that did not match: " + exception;
  }
  if (a.m_threw) return "threw an exception: " + exception;
  return std::string("with values: ") + doctest::assertString(a.m_at) + "( " + a.m_decomp.c_str() +
         " )";
}

std::string describe_assert(const doctest::AssertData& a) {
  std::string expression = a.m_expr;
  std::string call = std::string(doctest::assertString(a.m_at)) + "( " + expression + " )";
  return where(a.m_file, a.m_line) + call + " failed, " + what_went_wrong(a) + active_contexts();
}

// Collects every failure of the test case it is asked to run.
class RecordReporter : public doctest::IReporter {
 public:
  explicit RecordReporter(const doctest::ContextOptions&) {}

  void test_case_start(const doctest::TestCaseData&) override {
    std::lock_guard lock(g_verdict.mutex);
    ++g_verdict.cases_run;
  }

  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    if (stats.failure_flags & doctest::TestCaseFailureReason::Timeout)
      add_failure("took longer than the time it declared with doctest::timeout");
    // Also covers should_fail and may_fail, which doctest has already weighed.
    if (!stats.testCaseSuccess) add_failure_if_silent();
  }

  void test_case_exception(const doctest::TestCaseException& e) override {
    std::string kind = e.is_crash ? "crashed: " : "an exception escaped the test: ";
    add_failure(kind + e.error_string.c_str() + active_contexts());
  }

  void log_assert(const doctest::AssertData& a) override {
    if (a.m_failed) add_failure(describe_assert(a));
  }

  void log_message(const doctest::MessageData& m) override {
    using namespace doctest::assertType;
    // WARN and MESSAGE do not fail a test; CHECK/REQUIRE-level ones (FAIL) do.
    if (m.m_severity & (is_check | is_require))
      add_failure(where(m.m_file, m.m_line) + m.m_string.c_str() + active_contexts());
  }

  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void subcase_start(const doctest::SubcaseSignature& subcase) override {
    std::lock_guard lock(g_verdict.mutex);
    g_verdict.subcases.push_back(subcase.m_name.c_str());
  }

  void subcase_end() override {
    std::lock_guard lock(g_verdict.mutex);
    if (!g_verdict.subcases.empty()) g_verdict.subcases.pop_back();
  }

  void test_case_skipped(const doctest::TestCaseData&) override {}

 private:
  static void add_failure_if_silent() {
    {
      std::lock_guard lock(g_verdict.mutex);
      if (!g_verdict.passed) return;
    }
    add_failure("doctest reports the test case as failed");
  }
};

REGISTER_REPORTER("grading-record", 0, RecordReporter);

// One line of --list, as doctest describes the test case.
struct ListedCase {
  std::string name;
  std::string description;
  double timeout = 0;
};

std::vector<ListedCase> g_listed;

// Receives doctest's own --list-test-cases query, so the listing applies
// exactly the filters and skip decorators a real run would.
class ListReporter : public doctest::IReporter {
 public:
  explicit ListReporter(const doctest::ContextOptions&) {}

  void report_query(const doctest::QueryData& query) override {
    for (unsigned i = 0; i < query.num_data; ++i) {
      const doctest::TestCaseData& tc = *query.data[i];
      g_listed.push_back({tc.m_name, tc.m_description ? tc.m_description : "", tc.m_timeout});
    }
  }

  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

REGISTER_REPORTER("grading-list", 0, ListReporter);

// Returns the points in "points:N", or -1 when the description is not that.
int points_of(const std::string& description) {
  const std::string prefix = "points:";
  if (description.rfind(prefix, 0) != 0) return -1;
  std::string digits = description.substr(prefix.size());
  if (digits.empty() || digits.size() > 6 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    return -1;
  return std::atoi(digits.c_str());
}

// The runner selects a test with doctest's --test-case filter, where these
// characters are wildcards or separators; a tab or newline would break the
// listing itself.
bool selectable_by_exact_name(const std::string& name) {
  return !name.empty() && name.find_first_of("\t\n\r*?,\\") == std::string::npos;
}

// Checks one listed case; returns an error message, empty when fine.
std::string problem_with(const ListedCase& c, const std::set<std::string>& seen) {
  if (!selectable_by_exact_name(c.name))
    return "test case name contains a tab, newline, '*', '?', ',' or '\\': \"" + c.name + "\"";
  if (points_of(c.description) < 0) return "test case has no POINTS(n): \"" + c.name + "\"";
  if (seen.count(c.name) != 0) return "two test cases are named \"" + c.name + "\"";
  return {};
}

int list_test_cases(const char* program) {
  doctest::Context context;
  const char* args[] = {program, "--list-test-cases", "--reporters=grading-list",
                        "--no-version=true"};
  context.applyCommandLine(4, args);
  context.run();

  std::set<std::string> seen;
  int errors = 0;
  std::ostringstream out;
  for (const ListedCase& c : g_listed) {
    std::string problem = problem_with(c, seen);
    seen.insert(c.name);
    if (!problem.empty()) {
      std::cerr << "error: " << problem << "\n";
      ++errors;
      continue;
    }
    out << points_of(c.description) << '\t' << c.timeout << '\t' << c.name << '\n';
  }
  if (errors != 0) return 2;
  std::cout << out.str() << std::flush;
  return 0;
}

void write_all(int fd, const std::string& text) {
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    long n = raw_write(fd, data, left);
    if (n == -EINTR) continue;
    if (n <= 0) return;
    data += n;
    left -= static_cast<std::size_t>(n);
  }
}

// Returns whether the record says pass.
bool write_record(const std::string& name) {
  std::string record;
  bool passed;
  {
    std::lock_guard lock(g_verdict.mutex);
    if (g_verdict.cases_run != 1) {
      g_verdict.passed = false;
      g_verdict.messages += "no test case is named exactly \"" + name + "\"\n";
    }
    passed = g_verdict.passed;
    std::string observed = rt_test::detail::observations();
    record = g_channel.token + (passed ? " pass " : " fail ") + std::to_string(observed.size()) +
             "\n" + observed;
    if (!passed) record += g_verdict.messages;
  }
  if (g_channel.fd >= 0) {
    write_all(g_channel.fd, record);
    close(g_channel.fd);
  }
  return passed;
}

int run_one_test_case(const char* program, const std::string& name, int extra_count, char** extra) {
  std::string filter = "--test-case=" + name;
  std::vector<const char*> args = {program, filter.c_str(), "--case-sensitive=true",
                                   "--reporters=console,grading-record"};
  // Anything after the name is for doctest itself (for example -s).
  args.insert(args.end(), extra, extra + extra_count);
  doctest::Context context;
  context.applyCommandLine(static_cast<int>(args.size()), args.data());
  int status = context.run();
  std::cout << std::flush;
  bool passed = write_record(name);
  return passed || status != 0 ? status : 1;
}

}  // namespace

int main(int argc, char** argv) {
  grading::report_escaped_exceptions();
  if (argc >= 4 && std::strncmp(argv[3], token_option, sizeof token_option - 1) == 0) {
    g_channel = take_result_channel(argv[3]);
    // What follows the token is for doctest: the token leaves the list.
    for (int i = 3; i < argc; ++i) argv[i] = argv[i + 1];
    --argc;
  }
  if (argc >= 4 && std::strncmp(argv[3], seed_option, sizeof seed_option - 1) == 0) {
    rt_test::detail::set_observation_seed(
        std::strtoull(argv[3] + sizeof seed_option - 1, nullptr, 10));
    for (int i = 3; i < argc; ++i) argv[i] = argv[i + 1];
    --argc;
  }

  if (argc == 2 && std::strcmp(argv[1], "--list") == 0) return list_test_cases(argv[0]);
  if (argc >= 3 && std::strcmp(argv[1], "--run") == 0)
    return run_one_test_case(argv[0], argv[2], argc - 3, argv + 3);
  if (argc >= 2 && (std::strcmp(argv[1], "--run") == 0 || std::strcmp(argv[1], "--list") == 0)) {
    std::cerr << "usage: " << argv[0] << " --list | --run <exact test case name>\n";
    return 2;
  }

  doctest::Context context(argc, argv);
  return context.run();
}
