// The integrity scan of the student's sources; see integrity.hpp. Each rule
// matches identifiers, directives or string contents on the token stream
// of source_tokens.hpp, in one pass, so that it cannot backtrack or crash.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>

#include "integrity.hpp"
#include "source_tokens.hpp"

namespace grader {

namespace {

// Larger than any honest source file by far. The scan's memory is about 25
// times the file's size (a token per literal, a line number per byte):
// 45 MB of short literals peaked at 1.1 GB.
constexpr off_t size_limit = 16 * 1024 * 1024;


bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// doctest's assertions at one level (WARN, CHECK or REQUIRE), exactly as
// doctest.h (2.4) names them.
void add_assertions(std::set<std::string>& names, const std::string& level) {
  for (const char* suffix :
       {"", "_FALSE", "_MESSAGE", "_FALSE_MESSAGE", "_THROWS", "_THROWS_AS", "_THROWS_WITH",
        "_THROWS_WITH_AS", "_NOTHROW", "_THROWS_MESSAGE", "_THROWS_AS_MESSAGE",
        "_THROWS_WITH_MESSAGE", "_THROWS_WITH_AS_MESSAGE", "_NOTHROW_MESSAGE", "_EQ", "_NE", "_GT",
        "_LT", "_GE", "_LE", "_UNARY", "_UNARY_FALSE"})
    names.insert(level + suffix);
  for (const char* suffix : {"_EQ", "_NE", "_GT", "_LT", "_GE", "_LE", "_UNARY", "_UNARY_FALSE"})
    names.insert("FAST_" + level + suffix);
}

// doctest's short macro names that decide a verdict: its CHECK and
// REQUIRE assertions, and what registers or fails a test. A student's
// macro that only shares a prefix (CHECK_INVARIANT, REQUIRES, FAILED) is
// no redefinition.
std::set<std::string> doctest_verdict_names() {
  std::set<std::string> names = {
      "TEST_CASE", "TEST_CASE_CLASS", "TEST_CASE_FIXTURE", "TEST_CASE_TEMPLATE",
      "TEST_CASE_TEMPLATE_DEFINE", "TEST_CASE_TEMPLATE_INVOKE", "TEST_CASE_TEMPLATE_APPLY",
      "TEST_CASE_TEMPLATE_INSTANTIATE", "SUBCASE", "TEST_SUITE", "TEST_SUITE_BEGIN",
      "TEST_SUITE_END", "SCENARIO", "SCENARIO_CLASS", "SCENARIO_TEMPLATE",
      "SCENARIO_TEMPLATE_DEFINE", "GIVEN", "WHEN", "AND_WHEN", "THEN", "AND_THEN",
      "REGISTER_EXCEPTION_TRANSLATOR", "REGISTER_REPORTER", "REGISTER_LISTENER", "TO_LVALUE",
      "TYPE_TO_STRING", "TYPE_TO_STRING_AS", "FAIL", "FAIL_CHECK", "ADD_FAIL_AT",
      "ADD_FAIL_CHECK_AT"};
  add_assertions(names, "CHECK");
  add_assertions(names, "REQUIRE");
  return names;
}

// doctest's names that only write a message (INFO, the WARN level):
// redefined in a header, they reach into the tests; in a .cpp file they
// cannot, and the runtime's own logging macro may be called INFO.
std::set<std::string> doctest_message_names() {
  std::set<std::string> names = {"INFO", "CAPTURE", "MESSAGE", "ADD_MESSAGE_AT"};
  add_assertions(names, "WARN");
  return names;
}

bool is_test_name(const std::string& name, bool in_header) {
  static const std::set<std::string> verdicts = doctest_verdict_names();
  if (verdicts.count(name) || name.starts_with("DOCTEST_")) return true;
  static const std::set<std::string> messages = doctest_message_names();
  if (in_header && messages.count(name)) return true;
  // PR_SET_NAME: prctl naming a thread is allowed, so its name is fixed.
  // RT_MODEL: redefined, it would take the runtime out of the model
  // checker's hands in a model test.
  static const std::set<std::string> names = {"POINTS", "main", "PR_SET_NAME", "RT_MODEL"};
  return names.count(name) > 0;
}

// What a cgroup-aware worker count reads (as Rust's available_parallelism
// does): /proc, but not another process's, nor the arguments.
bool is_cgroup_file(const std::string& s, std::size_t at) {
  for (const char* file : {"/proc/self/cgroup", "/proc/self/mountinfo"}) {
    std::size_t n = std::strlen(file);
    if (s.compare(at, n, file) == 0 && (at + n == s.size() || !word_char(s[at + n]))) return true;
  }
  return false;
}

// Functions only reaching for other processes needs. `no_arguments`: those
// that take none, so that `name()` can be a call of libc's.
struct Forbidden {
  const char* name;
  bool no_arguments;
};
constexpr std::array<Forbidden, 17> forbidden_calls = {{
    {"fork", true}, {"vfork", true}, {"setsid", true}, {"getppid", true},
    {"kill", false}, {"killpg", false}, {"tgkill", false}, {"tkill", false},
    {"ptrace", false}, {"setpgid", false}, {"prctl", false}, {"system", false},
    {"popen", false}, {"dup2", false}, {"dup3", false}, {"close_range", false},
    {"posix_spawn", false},
}};

const Forbidden* forbidden(const std::string& name) {
  for (const Forbidden& f : forbidden_calls)
    if (name == f.name) return &f;
  static const Forbidden family = {"", false};
  // execv, execvp, execl..., posix_spawnp, process_vm_readv/writev
  if (name.starts_with("execv") || name.starts_with("execl") || name == "fexecve" ||
      name.starts_with("posix_spawn") || name.starts_with("process_vm_"))
    return &family;
  return nullptr;
}

bool is_sanitizer_namespace(const std::string& s) {
  return s == "__tsan" || s == "__asan" || s == "__lsan" || s == "__ubsan" || s == "__msan" ||
         s == "__sanitizer";
}

bool is_sanitizer_hook(const std::string& s) {
  for (const char* prefix : {"__tsan_", "__asan_", "__lsan_", "__ubsan_", "__msan_", "__sanitizer_"})
    if (s.starts_with(prefix) && s.size() > std::strlen(prefix)) return true;
  return false;
}

// Words after which `name(` declares or defines a function rather than
// calling one: a type, or a specifier.
bool is_expression_keyword(const std::string& s) {
  static const std::set<std::string> words = {"return", "co_return", "co_await", "co_yield",
                                              "throw",  "else",      "do",       "case",
                                              "sizeof", "decltype",  "noexcept", "new",
                                              "delete", "not",       "and",      "or"};
  return words.count(s) > 0;
}

// The run of word characters (and '::') starting at `at`.
std::string word_at(const std::string& s, std::size_t at) {
  std::size_t end = at;
  while (end < s.size() && (word_char(s[end]) || s[end] == ':')) ++end;
  return s.substr(at, end - at);
}

class SourceScan {
 public:
  SourceScan(const std::string& text, const std::string& where, const std::set<std::string>& own)
      : tokens_(tokenize(text)), where_(where), own_(own) {}

  std::vector<Finding> run() {
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      const Token& token = tokens_[i];
      if (token.kind == Token::punctuation && token.text == "#" && token.starts_line)
        directive(i);
      else if (token.kind == Token::identifier)
        identifier(i);
      else if (token.kind == Token::string)
        i = strings(i);
    }
    return std::move(found_);
  }

 private:
  const Token* at(std::size_t i) const { return i < tokens_.size() ? &tokens_[i] : nullptr; }
  bool is(std::size_t i, Token::Kind kind, const char* text) const {
    const Token* t = at(i);
    return t && t->kind == kind && t->text == text;
  }
  bool punct(std::size_t i, const char* text) const { return is(i, Token::punctuation, text); }

  // A file a test can include: not a .cpp file.
  bool in_header() const {
    for (const char* source : {".cpp", ".cc", ".cxx", ".c"}) {
      std::size_t n = std::strlen(source);
      if (where_.size() >= n && where_.compare(where_.size() - n, n, source) == 0) return false;
    }
    return true;
  }

  void report(const Token& token, std::string what) {
    Finding f{where_ + ":" + std::to_string(token.line), std::move(what)};
    for (const Finding& g : found_)
      if (g.where == f.where && g.what == f.what) return;
    found_.push_back(std::move(f));
  }

  void directive(std::size_t hash) {
    const Token* name = at(hash + 1);
    if (!name || name->kind != Token::identifier) return;
    if (name->text == "define" || name->text == "undef") {
      const Token* macro = at(hash + 2);
      if (macro && macro->kind == Token::identifier && is_test_name(macro->text, in_header()))
        report(*macro, "redefines the test macro or name '" + macro->text + "'");
    } else if (name->text == "include" || name->text == "include_next" || name->text == "import") {
      for (std::size_t i = hash + 2; i < tokens_.size() && !tokens_[i].starts_line; ++i)
        if (tokens_[i].text.find("doctest") != std::string::npos) {
          report(*name, "includes doctest");
          break;
        }
      const Token* file = at(hash + 2);
      if (file && file->kind == Token::string && !file->starts_line) included(*file);
    }
  }

  // An #include "..." that leaves the student's chapter: by an absolute
  // path, or by one that climbs out of the chapter's folder. Honest code
  // includes its own headers and the course's, by the include path.
  void included(const Token& file) {
    const std::string& path = file.text;
    if (path.starts_with("/")) {
      report(file, "includes a file by its absolute path (" + path + ")");
      return;
    }
    std::size_t chapters = where_.rfind("/chapters/");
    if (chapters == std::string::npos || path.find("..") == std::string::npos) return;
    std::size_t slug_end = where_.find('/', chapters + 10);
    if (slug_end == std::string::npos) return;
    std::filesystem::path chapter = where_.substr(0, slug_end);
    std::filesystem::path resolved =
        (std::filesystem::path(where_).parent_path() / path).lexically_normal();
    auto [end, unused] = std::mismatch(chapter.begin(), chapter.end(), resolved.begin(), resolved.end());
    if (end != chapter.end()) report(file, "includes a file outside its chapter's folder (" + path + ")");
  }

  // What comes before `name`: member access and a user's qualification
  // make it some other function than libc's.
  bool someone_elses(std::size_t i) const {
    if (i == 0) return false;
    if (punct(i - 1, ".") || punct(i - 1, "->")) return true;
    if (punct(i - 1, "::")) {
      const Token* scope = at(i - 2);
      return i >= 2 && scope->kind == Token::identifier && scope->text != "std";
    }
    return false;
  }

  void identifier(std::size_t i) {
    const std::string& name = tokens_[i].text;
    if (name.starts_with("GRADER_")) report(tokens_[i], "names the grader's internals (" + name + ")");
    if (is_sanitizer_hook(name)) {
      report(tokens_[i], "touches a sanitizer's hook (" + name + ")");
    } else if (is_sanitizer_namespace(name) && punct(i + 1, "::") && at(i + 2) &&
               at(i + 2)->kind == Token::identifier) {
      report(tokens_[i], "touches a sanitizer's hook (" + name + "::" + at(i + 2)->text + ")");
    } else if (is_sanitizer_namespace(name) && i >= 1 && is(i - 1, Token::identifier, "namespace")) {
      report(tokens_[i], "touches a sanitizer's hook (namespace " + name + ")");
    }
    if (name == "__libc_argv" || name == "__libc_argc" || name == "_dl_argv" ||
        name == "__environ" || name == "environ" || name.starts_with("program_invocation_")) {
      if (!someone_elses(i))
        report(tokens_[i], "reaches for the process's arguments or environment (" + name + ")");
    }
    if ((name == "constructor" || name == "__constructor__") && i >= 1) {
      if ((punct(i - 1, "::") && i >= 2 && is(i - 2, Token::identifier, "gnu")) || in_using_gnu(i))
        report(tokens_[i], "runs code before main() (gnu::constructor)");
      else if (punct(i - 1, "(") && punct(i - 2, "(") && i >= 3 && at(i - 3)->kind == Token::identifier &&
               at(i - 3)->text.starts_with("__attribute"))
        report(tokens_[i], "runs code before main() (__attribute__((constructor)");
    }
    // A static object constructed before the others, as early as the test
    // main's own constructor that takes its token (grading_main.cpp).
    if (name == "init_priority" || name == "__init_priority__")
      report(tokens_[i], "runs code before main() (init_priority)");
    if (name == "extern" && is(i + 1, Token::string, "C")) extern_c(i + 2);
    if (const Forbidden* f = forbidden(name)) call(i, *f);
    // syscall(SYS_kill, ...): the same calls by their numbers.
    for (const char* prefix : {"SYS_", "__NR_"})
      if (name.starts_with(prefix) && forbidden(name.substr(std::strlen(prefix))))
        report(tokens_[i], "calls " + name.substr(std::strlen(prefix)) + "() through syscall (" + name + ")");
  }

  // `constructor` in an attribute list `[[using gnu: used, constructor]]`:
  // back over the list's names and commas to `using gnu :`.
  bool in_using_gnu(std::size_t i) const {
    for (std::size_t j = i; j >= 3 && i - j < 64; --j) {
      if (punct(j - 1, ":") && is(j - 2, Token::identifier, "gnu") && is(j - 3, Token::identifier, "using"))
        return true;
      const Token* before = at(j - 1);
      if (!before || (before->kind != Token::identifier && !punct(j - 1, ",") && !punct(j - 1, "(") &&
                      !punct(j - 1, ")") && before->kind != Token::number && before->kind != Token::string))
        return false;
    }
    return false;
  }

  void call(std::size_t i, const Forbidden& f) {
    const std::string& name = tokens_[i].text;
    if (!punct(i + 1, "(") || someone_elses(i)) return;
    // `void kill()`, `bool Task::kill(int)`: a declaration, not a call.
    if (i >= 1 && at(i - 1)->kind == Token::identifier && !is_expression_keyword(at(i - 1)->text))
      return;
    // The runtime's own `rt::kill(task)`, called unqualified: the symbol
    // it links to says whose it is (scan_objects). `::kill` is libc's.
    if (own_.count(name) && !(i >= 1 && punct(i - 1, "::"))) return;
    // Empty parentheses cannot call a libc function that takes arguments.
    if (!f.no_arguments && punct(i + 2, ")")) return;
    // prctl(PR_SET_NAME, ...) names a thread; any other option is flagged.
    if (name == "prctl" && is(i + 2, Token::identifier, "PR_SET_NAME")) return;
    report(tokens_[i], "calls " + name + "()");
  }

  // extern "C" ... name( up to the declaration's end, or every
  // declaration directly inside an extern "C" { } block.
  void extern_c(std::size_t i) {
    static const std::set<std::string> libc = {"write", "read",   "_exit", "exit",
                                               "abort", "getenv", "close", "main"};
    int depth = 0;
    bool block = punct(i, "{");
    for (; i < tokens_.size(); ++i) {
      const Token& t = tokens_[i];
      if (t.kind == Token::punctuation) {
        if (t.text == "{") {
          if (!block) return;
          ++depth;
        } else if (t.text == "}") {
          if (--depth <= 0) return;
        } else if (t.text == ";" && !block) {
          return;
        }
      } else if (t.kind == Token::identifier && (!block || depth == 1) && libc.count(t.text) &&
                 punct(i + 1, "(")) {
        report(t, "declares libc's " + t.text + "() itself");
      }
    }
  }

  // Adjacent string literals are one string (phase 6): "/pr" "oc" is
  // "/proc". Returns the last token of the run.
  std::size_t strings(std::size_t first) {
    std::size_t last = first;
    std::string joined = tokens_[first].text;
    for (;;) {
      // A name between two pieces may be a macro that expands to nothing
      // ("/pr" EMPTY "oc"): read across it.
      std::size_t next = last + 1;
      while (next < tokens_.size() && tokens_[next].kind == Token::identifier && !tokens_[next].starts_line) ++next;
      if (next >= tokens_.size() || tokens_[next].kind != Token::string) break;
      last = next;
      joined += tokens_[last].text;
    }
    const Token& where = tokens_[first];
    for (std::size_t at = joined.find("/proc"); at != std::string::npos;
         at = joined.find("/proc", at + 1))
      if ((at + 5 >= joined.size() || !word_char(joined[at + 5])) && !is_cgroup_file(joined, at))
        report(where, "reads /proc");
    for (std::size_t at = joined.find("cmdline"); at != std::string::npos;
         at = joined.find("cmdline", at + 1))
      if ((at == 0 || !word_char(joined[at - 1])) &&
          (at + 7 >= joined.size() || !word_char(joined[at + 7])))
        report(where, "reads /proc");
    for (const char* name : {"GRADER_", "grader-sandbox", "grader-token", "grader-seed"})
      for (std::size_t at = joined.find(name); at != std::string::npos;
           at = joined.find(name, at + 1))
        report(where, "names the grader's internals (" +
                          (name[0] == 'G' ? word_at(joined, at) : std::string(name)) + ")");
    for (const char* name : {"__tsan", "__asan", "__lsan", "__ubsan", "__msan", "__sanitizer"})
      for (std::size_t at = joined.find(name); at != std::string::npos;
           at = joined.find(name, at + 1))
        report(where, "touches a sanitizer's hook (" + word_at(joined, at) + ")");
    for (const char* name : {".init_array", ".preinit_array"})
      if (joined.find(name) != std::string::npos)
        report(where, std::string("runs code before main() (") + name + ")");
    // The older sections of constructors and destructors, and of the code
    // run before and after main: a name with no word character on either
    // side (".init", not "config.init" or ".init_array").
    for (const char* name : {".ctors", ".dtors", ".init", ".fini"})
      for (std::size_t at = joined.find(name); at != std::string::npos; at = joined.find(name, at + 1)) {
        std::size_t end = at + std::strlen(name);
        if ((at == 0 || !word_char(joined[at - 1])) && (end >= joined.size() || !word_char(joined[end])))
          report(where, std::string("runs code outside main() (") + name + ")");
      }
    if (joined.find(".include") != std::string::npos)
      report(where, "makes the assembler read a file (.include)");
    // The assembler reads the file, so no compiler dependency names it.
    if (joined.find(".incbin") != std::string::npos)
      report(where, "pastes a file into the binary (.incbin)");
    return last;
  }

  std::vector<Token> tokens_;
  std::string where_;
  const std::set<std::string>& own_;
  std::vector<Finding> found_;
};

// The process calls' names declared as functions of the student's own, in
// a named namespace or a class inside one (`namespace rt { void
// kill(TaskRef); }`): never libc's, which is declared in the global
// namespace or in `extern "C"`.
void add_own_functions(const std::vector<Token>& tokens, std::set<std::string>& own) {
  enum Scope { other, named_namespace, extern_c };
  std::vector<Scope> scopes;  // one per open brace
  auto is = [&tokens](std::size_t i, Token::Kind kind, const char* text) {
    return i < tokens.size() && tokens[i].kind == kind && tokens[i].text == text;
  };
  auto extern_c_before = [&](std::size_t i) {
    for (std::size_t j = i; j >= 2 && i - j < 8; --j)
      if (is(j - 1, Token::string, "C") && is(j - 2, Token::identifier, "extern")) return true;
    return false;
  };
  auto opens = [&](std::size_t brace) {
    if (brace >= 1 && is(brace - 1, Token::string, "C")) return extern_c;
    // namespace a::b {: back over the names and '::' to `namespace`.
    std::size_t j = brace;
    while (j >= 1 && (tokens[j - 1].kind == Token::identifier || is(j - 1, Token::punctuation, "::")) &&
           tokens[j - 1].text != "namespace")
      --j;
    return j < brace && is(j - 1, Token::identifier, "namespace") ? named_namespace : other;
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (is(i, Token::punctuation, "{")) {
      scopes.push_back(opens(i));
    } else if (is(i, Token::punctuation, "}")) {
      if (!scopes.empty()) scopes.pop_back();
    } else if (t.kind == Token::identifier && forbidden(t.text) && is(i + 1, Token::punctuation, "(") &&
               i >= 1 && tokens[i - 1].kind == Token::identifier &&
               !is_expression_keyword(tokens[i - 1].text) && !extern_c_before(i) &&
               std::find(scopes.begin(), scopes.end(), named_namespace) != scopes.end() &&
               std::find(scopes.begin(), scopes.end(), extern_c) == scopes.end()) {
      own.insert(t.text);
    }
  }
}

// The whole file, or ScanError: never a silent skip. Opened without
// blocking and checked to be a regular file, so that a FIFO cannot hang
// the scan.
std::string read_source(const std::string& file) {
  auto fail = [&file](const std::string& why) {
    return ScanError("cannot scan " + file + ": " + why);
  };
  int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) throw fail(std::strerror(errno));
  struct stat info {};
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    close(fd);
    throw fail("not a regular file");
  }
  if (info.st_size > size_limit) {
    close(fd);
    throw fail("larger than 16 MiB");
  }
  std::string text;
  char buffer[65536];
  for (;;) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int error = errno;
      close(fd);
      throw fail(std::strerror(error));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (static_cast<off_t>(text.size()) > size_limit) {
      close(fd);
      throw fail("larger than 16 MiB");
    }
  }
  close(fd);
  return text;
}

}  // namespace

std::vector<Finding> scan_source_text(const std::string& text, const std::string& where,
                                      const std::set<std::string>& own) {
  return SourceScan(text, where, own).run();
}

bool reaches_other_processes(const std::string& name) {
  // prctl, dup2, dup3 and close_range have honest uses: the source scan
  // judges them by how they are called.
  return forbidden(name) && name != "prctl" && name != "dup2" && name != "dup3" && name != "close_range";
}

std::set<std::string> own_functions(const std::vector<std::string>& texts) {
  std::set<std::string> own;
  for (const std::string& text : texts) add_own_functions(tokenize(text), own);
  return own;
}

std::vector<Finding> scan_sources(const std::vector<std::string>& files) {
  std::vector<std::string> texts;
  for (const std::string& file : files) texts.push_back(read_source(file));
  std::set<std::string> own = own_functions(texts);
  std::vector<Finding> found;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string& file = files[i];
    std::vector<Finding> in_file = scan_source_text(texts[i], file, own);
    found.insert(found.end(), in_file.begin(), in_file.end());
  }
  return found;
}

}  // namespace grader
