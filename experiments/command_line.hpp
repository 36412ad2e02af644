// CommandLine: an experiment program's options (--tasks 1000, ...). The
// parsing is CLI11's, in command_line.cpp, compiled once for every program:
// the library is the slow part of a build, and it does not depend on the
// runtime an experiment measures.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace experiments {

class CommandLine {
 public:
  explicit CommandLine(const std::string& description);
  ~CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  // --name N, a number above zero (int, long or std::size_t).
  template <class Number>
  void positive(const std::string& name, Number& value, const std::string& help);
  // --name N, from `low` to `high`.
  template <class Number>
  void in_range(const std::string& name, Number& value, const std::string& help, Number low, Number high);
  // --name TEXT; one of `choices`, when there are any.
  void text(const std::string& name, std::string& value, const std::string& help,
            const std::vector<std::string>& choices = {});

  // Reads the command line: the exit code to end the program with (after
  // --help, or a bad option, which it explains), or nothing to run it.
  std::optional<int> parse(int argc, char** argv);

 private:
  struct App;
  std::unique_ptr<App> app_;
};

}  // namespace experiments
