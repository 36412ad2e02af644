// The integrity scan of the sources: the reference solutions and honest
// variations (integrity/honest/) give no finding, each dishonest sample
// (integrity/dishonest/, its `// expect:` lines) gives the findings it
// names, and neither a megabyte-long line nor an unreadable file crashes
// or silently passes the scan.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <string>
#include <vector>

#include "integrity.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path source_root = COURSE_SOURCE_ROOT;

std::vector<std::string> sources_under(const fs::path& dir) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".cpp" || ext == ".hpp" || ext == ".h"))
      files.push_back(entry.path().string());
  }
  return files;
}

std::string listed(const std::vector<grader::Finding>& found) {
  std::string text;
  for (const grader::Finding& f : found) text += f.where + ": " + f.what + "\n";
  return text;
}

std::vector<std::string> expected_in(const std::string& file) {
  std::ifstream in(file);
  std::vector<std::string> expected;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("// expect: ", 0) == 0) expected.push_back(line.substr(11));
  return expected;
}

}  // namespace

TEST_CASE("every reference solution and starter scans clean") {
  std::vector<std::string> files = sources_under(source_root / "solutions");
  std::vector<std::string> starters = sources_under(source_root / "chapters");
  files.insert(files.end(), starters.begin(), starters.end());
  REQUIRE(files.size() > 20);
  std::vector<grader::Finding> found = grader::scan_sources(files);
  INFO(listed(found));
  CHECK(found.empty());
}

TEST_CASE("honest variations scan clean") {
  std::vector<std::string> files = sources_under(source_root / "tests/grader/integrity/honest");
  REQUIRE(files.size() >= 4);
  std::vector<grader::Finding> found = grader::scan_sources(files);
  INFO(listed(found));
  CHECK(found.empty());
}

TEST_CASE("each dishonest sample is found") {
  for (const std::string& file : sources_under(source_root / "tests/grader/integrity/dishonest")) {
    std::vector<std::string> expected = expected_in(file);
    REQUIRE(!expected.empty());
    std::vector<grader::Finding> found = grader::scan_sources({file});
    for (const std::string& what : expected) {
      bool named = false;
      for (const grader::Finding& f : found) named = named || f.what == what;
      INFO(file, "\n", listed(found));
      CHECK_MESSAGE(named, what);
    }
  }
}

TEST_CASE("findings carry the physical line, after splices") {
  std::vector<grader::Finding> found =
      grader::scan_source_text("int a;\nint b = \\\n 1;\nint c = fork();\n", "x.cpp");
  REQUIRE(found.size() == 1);
  CHECK(found[0].where == "x.cpp:4");
  CHECK(found[0].what == "calls fork()");
}

TEST_CASE("a megabyte-long line neither crashes the scan nor hides a call") {
  std::string line = "int values[] = {";
  while (line.size() < 1024 * 1024) line += "1, 2, 3, \"fork()\", '\"', ";
  line += "0}; int after = fork();\n";
  std::vector<grader::Finding> found = grader::scan_source_text(line, "long.cpp");
  REQUIRE(found.size() == 1);
  CHECK(found[0].what == "calls fork()");
  CHECK(grader::scan_source_text(std::string(1024 * 1024, '('), "parens.cpp").empty());
  CHECK(grader::scan_source_text("\"" + std::string(1024 * 1024, '\\'), "escapes.cpp").empty());
}

TEST_CASE("a file the scan cannot read stops it") {
  CHECK_THROWS_AS(grader::scan_sources({"/nonexistent/rt.cpp"}), grader::ScanError);
  fs::path dir = fs::temp_directory_path() / ("integrity-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  CHECK_THROWS_AS(grader::scan_sources({dir.string()}), grader::ScanError);
  fs::remove_all(dir);
}

TEST_CASE("a symbolic link is reported under its own name") {
  fs::path dir = fs::temp_directory_path() / ("integrity-link-" + std::to_string(getpid()));
  fs::create_directories(dir);
  { std::ofstream(dir / "target.cpp") << "int f() { return fork(); }\n"; }
  fs::create_symlink(dir / "target.cpp", dir / "link.cpp");
  std::vector<grader::Finding> found = grader::scan_sources({(dir / "link.cpp").string()});
  fs::remove_all(dir);
  REQUIRE(found.size() == 1);
  CHECK(found[0].where == (dir / "link.cpp").string() + ":1");
}

namespace {

// A build directory as -save-temps=obj leaves it: a unit's preprocessed
// text and its assembly beside the object, paths in their markers
// relative to where build.ninja is.
struct CompilerOutput {
  fs::path root = fs::temp_directory_path() / ("integrity-output-" + std::to_string(getpid()));
  fs::path build = root / "build-none";
  fs::path objects = build / "chapters" / "01-executor" / "librt.a.p";
  std::string student = (root / "course" / "chapters" / "01-executor" / "rt" / "cell.cpp").string();

  CompilerOutput(const std::string& preprocessed, const std::string& assembly) {
    fs::create_directories(objects);
    std::ofstream(build / "build.ninja") << "# ninja\n";
    std::ofstream(objects / "cell.cpp.ii") << preprocessed;
    // g++'s own mark, as it ends every unit it writes.
    std::ofstream(objects / "cell.cpp.s") << assembly << "\t.ident\t\"GCC: (Debian 12.2.0-14) 12.2.0\"\n";
  }
  ~CompilerOutput() { fs::remove_all(root); }

  std::vector<grader::Finding> scan() const {
    return grader::scan_compiler_output({objects.string()}, {objects.string()}, {student});
  }
};

constexpr const char* student_marker = "\"../course/chapters/01-executor/rt/cell.cpp\"";

}  // namespace

TEST_CASE("the preprocessed unit is scanned where it came from the student's files, macros applied") {
  std::string unit = std::string("# 1 ") + student_marker + "\n# 1 \"<built-in>\"\n# 1 " + student_marker +
                     "\n# 1 \"/usr/include/signal.h\" 1 3 4\nextern \"C\" int kill(int, int);\n"
                     "int raise_it(int s) { return kill(0, s); }\n"
                     "# 7 " + student_marker + " 2\n\nint poke(int pid) { return kill(pid, 0); }\n";
  CompilerOutput output(unit, "");
  std::vector<grader::Finding> found = output.scan();
  INFO(listed(found));
  REQUIRE(found.size() == 1);  // the system header's own lines are not the student's
  CHECK(found[0].where == output.student + ":8");
  CHECK(found[0].what == "calls kill()");
}

TEST_CASE("the assembly: .incbin anywhere, and directives in the student's inline assembly") {
  std::string assembly = std::string("\t.text\n#APP\n# 12 ") + student_marker + " 1\n\tpause\n# 0 \"\" 2\n" +
                         "\t.loc 1 12 3 view .LVU9\n#NO_APP\n" +
                         "\t.section\t.init_array,\"aw\"\n\t.quad\t_GLOBAL__sub_I_cell.cpp\n" +
                         "#APP\n# 20 " + student_marker + " 1\n\t.pushsection .rodata\n.incbin \"x.cpp\"\n"
                         "\t.popsection\n# 0 \"\" 2\n#NO_APP\n";
  CompilerOutput output("", assembly);
  std::vector<grader::Finding> found = output.scan();
  INFO(listed(found));
  std::string where = output.student + ":20";
  auto named = [&](const std::string& what) {
    for (const grader::Finding& f : found)
      if (f.where == where && f.what == what) return true;
    return false;
  };
  CHECK(found.size() == 4);  // the pause, the compiler's .loc and .init_array are no finding
  CHECK(named("pastes a file into the binary (.incbin)"));
  CHECK(named("writes an assembler directive in inline assembly (.pushsection)"));
  CHECK(named("writes an assembler directive in inline assembly (.incbin)"));
  CHECK(named("writes an assembler directive in inline assembly (.popsection)"));
}

TEST_CASE("the assembly: a block the compiler did not open is the student's imitation") {
  std::string assembly = std::string("#APP\n# 3 ") + student_marker + " 1\n\tnop\n#NO_APP\n" +
                         "\t.incbin \"secret\"\n#APP\n# 0 \"\" 2\n#NO_APP\n";
  CompilerOutput output("", assembly);
  std::vector<grader::Finding> found = output.scan();
  INFO(listed(found));
  bool imitation = false, pasted = false;
  for (const grader::Finding& f : found) {
    imitation = imitation || f.what == "imitates the compiler's markers of inline assembly (#APP)";
    pasted = pasted || f.what == "pastes a file into the binary (.incbin)";
  }
  CHECK(imitation);
  CHECK(pasted);
}

TEST_CASE("the runtime's own kill, called unqualified, is judged by the symbol it links to") {
  std::string unit = std::string("# 1 ") + student_marker +
                     "\nnamespace rt {\nstruct TaskRef { int id; };\nvoid kill(TaskRef t, int reason);\n"
                     "void stop(TaskRef t) { kill(t, 1); }\n}\n";
  CompilerOutput output(unit, "");
  std::vector<grader::Finding> found = output.scan();
  INFO(listed(found));
  CHECK(found.empty());

  fs::path dir = fs::temp_directory_path() / ("integrity-objects-" + std::to_string(getpid()));
  fs::create_directories(dir / "own");
  fs::create_directories(dir / "libc");
  std::ofstream(dir / "own" / "own.cpp") << "namespace rt { void kill(int t, int r); void stop() { kill(1, 2); } }\n";
  std::ofstream(dir / "libc" / "libc.cpp")
      << "namespace rt { extern \"C\" int kill(int, int); void stop() { kill(1, 9); } }\n";
  for (const char* name : {"own", "libc"}) {
    fs::path at = dir / name / name;
    std::string compile = "c++ -c -o " + at.string() + ".o " + at.string() + ".cpp";
    REQUIRE(std::system(compile.c_str()) == 0);
  }
  CHECK(grader::scan_objects({(dir / "own").string()}, {}).empty());
  std::vector<grader::Finding> libc = grader::scan_objects({(dir / "libc").string()}, {});
  INFO(listed(libc));
  REQUIRE(libc.size() == 1);
  CHECK(libc[0].what == "calls kill() (libc's, by the symbol it links to), which reaches other processes");
  fs::remove_all(dir);
}
