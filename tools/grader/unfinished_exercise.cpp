// Recognising an unfinished exercise; see unfinished_exercise.hpp.
#include "unfinished_exercise.hpp"

namespace grader {

namespace {

constexpr const char todo_start[] = "TODO: exercise ";
constexpr const char todo_end[] = " is not done yet";

// What tests/support/escaped_exceptions.cpp prints for an exception that
// reached std::terminate.
constexpr const char terminate_note[] = "grader-note: std::terminate:";

// An exercise is short and on one line: anything else is not a Todo message.
constexpr std::size_t longest_exercise = 200;

}  // namespace

std::string todo_exercise(const std::string& text) {
  for (std::size_t at = text.find(todo_start); at != std::string::npos;
       at = text.find(todo_start, at + 1)) {
    std::size_t begin = at + sizeof todo_start - 1;
    std::size_t end = text.find(todo_end, begin);
    if (end == std::string::npos) return {};
    std::string exercise = text.substr(begin, end - begin);
    if (!exercise.empty() && exercise.size() <= longest_exercise &&
        exercise.find('\n') == std::string::npos)
      return exercise;
  }
  return {};
}

std::string unfinished_exercise(const std::string& failure_messages, const std::string& output) {
  if (std::string named = todo_exercise(failure_messages); !named.empty()) return named;
  std::size_t note = output.find(terminate_note);
  if (note != std::string::npos) {
    std::size_t line_end = output.find('\n', note);
    std::string named = todo_exercise(output.substr(note, line_end - note));
    if (!named.empty()) return named;
  }
  return todo_exercise(output);
}

}  // namespace grader
