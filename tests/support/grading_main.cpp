// The main() of every test binary. By hand it is an ordinary doctest
// binary; for the grader it speaks a small protocol:
//
//   --run NAME [--grader-token=TOKEN [--grader-seed=SEED]]
//                   run exactly that test case. The grader passes a fresh
//                   token and a pipe on descriptor 3; a constructor takes the
//                   token out of argv before anything else, then main() writes one record
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
// prints "pass" cannot forge one because it never learns the token. It is
// not in the environment; a constructor of the earliest priority a program
// can ask for (101, before every static initializer of the code under test
// and of the tests, which run at the default one) wipes it from argv, and
// so from /proc/self/cmdline and from the stack a walk from `environ` or
// getenv() would cross; and from then on the token is never whole in
// memory: kept XORed with a random mask, the mask in a page of its own
// that mmap placed, and written into the record a byte at a time. So neither a scan of the
// process's memory for the token's shape, nor a replaced operator new or
// strlen that watches it go by (the token is copied by hand), finds it.
// Code that runs before that constructor (a higher priority of its own)
// or reads the grader's internals is what the grader's integrity scan
// looks for.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
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

// Where the record goes: descriptor 3, when the grader opened it.
struct ResultChannel {
  int fd = -1;
};

ResultChannel g_channel;

constexpr int channel_fd = 3;
constexpr const char token_option[] = "--grader-token=";
constexpr const char seed_option[] = "--grader-seed=";

// The token, never whole in memory: masked[i] ^ mask[i]. The mask lives
// in a page of its own, where mmap put it, not beside the masked bytes.
constexpr std::size_t max_token = 64;
unsigned char g_masked_token[max_token];
unsigned char* g_token_mask = nullptr;
std::size_t g_token_size = 0;

bool starts_with_option(const char* argument, const char* option) {
  for (; *option; ++option, ++argument)
    if (*argument != *option) return false;
  return true;
}

// Random bytes from the kernel, and a page of memory where the kernel
// chooses, each with a raw system call (getrandom, mmap): no function the
// code under test defines can see them.
void kernel_random(unsigned char* into, std::size_t size);
unsigned char* anonymous_page();

// In argv[3], before any other code of the program runs: the token, taken
// into its masked store and wiped from argv, by hand (no strlen, memcpy or
// std::string, which code under test could replace or watch).
__attribute__((constructor(101))) void take_token_first(int argc, char** argv, char**) {
  if (argc < 4 || !starts_with_option(argv[3], token_option)) return;
  char* token = argv[3] + sizeof token_option - 1;
  unsigned char* page = anonymous_page();
  if (!page) return;  // no token, no record: every test reads as not passed
  g_token_mask = page;
  kernel_random(g_token_mask, max_token);
  std::size_t size = 0;
  for (; token[size] != '\0' && size < max_token; ++size) {
    g_masked_token[size] = static_cast<unsigned char>(token[size]) ^ g_token_mask[size];
    token[size] = 'x';
  }
  for (std::size_t i = size; token[i] != '\0'; ++i) token[i] = 'x';  // a token too long: wiped all the same
  g_token_size = size;
}

// Descriptor 3, when it is the grader's pipe (the token was in argv[3]).
ResultChannel take_result_channel() {
  ResultChannel channel;
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

void kernel_random(unsigned char* into, std::size_t size) {
  std::size_t got = 0;
  while (got < size) {
#if defined(__x86_64__)
    long n;
    asm volatile("syscall"
                 : "=a"(n)
                 : "0"(318L /* SYS_getrandom */), "D"(into + got), "S"(size - got), "d"(0L)
                 : "rcx", "r11", "memory");
#elif defined(__aarch64__)
    register long x8 asm("x8") = 278;  // SYS_getrandom
    register long x0 asm("x0") = reinterpret_cast<long>(into + got);
    register std::size_t x1 asm("x1") = size - got;
    register long x2 asm("x2") = 0;
    asm volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
    long n = x0;
#else
    long n = ::getrandom(into + got, size - got, 0);
#endif
    if (n == -EINTR) continue;
    if (n <= 0) return;  // a mask of zeros: the token in plain, as before
    got += static_cast<std::size_t>(n);
  }
}

unsigned char* anonymous_page() {
  long flags = MAP_PRIVATE | MAP_ANONYMOUS;
#if defined(__x86_64__)
  long result;
  register long r10 asm("r10") = flags;
  register long r8 asm("r8") = -1;
  register long r9 asm("r9") = 0;
  asm volatile("syscall"
               : "=a"(result)
               : "0"(9L /* SYS_mmap */), "D"(0L), "S"(4096L), "d"(static_cast<long>(PROT_READ | PROT_WRITE)),
                 "r"(r10), "r"(r8), "r"(r9)
               : "rcx", "r11", "memory");
#elif defined(__aarch64__)
  register long x8 asm("x8") = 222;  // SYS_mmap
  register long x0 asm("x0") = 0;
  register long x1 asm("x1") = 4096;
  register long x2 asm("x2") = PROT_READ | PROT_WRITE;
  register long x3 asm("x3") = flags;
  register long x4 asm("x4") = -1;
  register long x5 asm("x5") = 0;
  asm volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
  long result = x0;
#else
  void* mapped = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  long result = mapped == MAP_FAILED ? -1 : reinterpret_cast<long>(mapped);
#endif
  if (result < 0 && result > -4096) return nullptr;  // -errno
  return reinterpret_cast<unsigned char*>(result);
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
    record = (passed ? " pass " : " fail ") + std::to_string(observed.size()) + "\n" + observed;
    if (!passed) record += g_verdict.messages;
  }
  if (g_channel.fd >= 0) {
    // The token a byte at a time, each unmasked into a register's worth
    // of stack and written at once: it is never whole in memory, even now.
    for (std::size_t i = 0; i < g_token_size; ++i) {
      char byte = static_cast<char>(g_masked_token[i] ^ g_token_mask[i]);
      while (raw_write(g_channel.fd, &byte, 1) == -EINTR) {
      }
    }
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
    // Its token was taken already (take_token_first): here, the pipe.
    if (g_token_mask) g_channel = take_result_channel();
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
