// The experiments' command line on CLI11; see command_line.hpp.
#include "command_line.hpp"

#include <CLI/CLI.hpp>
#include <cstddef>

namespace experiments {

struct CommandLine::App {
  CLI::App cli;
};

CommandLine::CommandLine(const std::string& description) : app_(new App{CLI::App{description}}) {}

CommandLine::~CommandLine() = default;

template <class Number>
void CommandLine::positive(const std::string& name, Number& value, const std::string& help) {
  app_->cli.add_option(name, value, help)->check(CLI::PositiveNumber);
}

template <class Number>
void CommandLine::in_range(const std::string& name, Number& value, const std::string& help, Number low,
                           Number high) {
  app_->cli.add_option(name, value, help)->check(CLI::Range(low, high));
}

void CommandLine::text(const std::string& name, std::string& value, const std::string& help,
                       const std::vector<std::string>& choices) {
  CLI::Option* option = app_->cli.add_option(name, value, help);
  if (!choices.empty()) option->check(CLI::IsMember(choices));
}

std::optional<int> CommandLine::parse(int argc, char** argv) {
  try {
    app_->cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app_->cli.exit(e);
  }
  return std::nullopt;
}

// The kinds of number the experiments read.
template void CommandLine::positive(const std::string&, int&, const std::string&);
template void CommandLine::positive(const std::string&, long&, const std::string&);
template void CommandLine::positive(const std::string&, std::size_t&, const std::string&);
template void CommandLine::in_range(const std::string&, std::size_t&, const std::string&, std::size_t, std::size_t);

}  // namespace experiments
