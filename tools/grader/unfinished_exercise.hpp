// Recognising an unfinished exercise in what a test reported. A starter's
// stub throws rt::Todo with the message
//
//   TODO: exercise 4 of chapter 01 (yield_now, in rt/task/yield_now.cpp) is not done yet
//
// and the test binaries print it wherever it goes (a worker thread, a
// destructor, a task nobody joins; tests/support/escaped_exceptions.hpp).
// A test that fails after a stub threw has not been started, whatever the
// way it failed: it is reported as "not started", naming the exercise. The
// score is the same either way: only a pass earns points.
#pragma once

#include <string>

namespace grader {

// What tests/support/escaped_exceptions.cpp prints when the first rt::Todo
// of a test is thrown: from then on the test cannot pass on the stub's work.
inline constexpr char todo_thrown_note[] = "grader-note: rt::Todo thrown";

// How long a test may go on after that note: long enough for a test that
// catches the Todo and finishes, short enough that a test left waiting for
// what the stub should have done does not hold the grade for its whole limit.
inline constexpr int todo_grace_seconds = 5;

// "4 of chapter 01 (yield_now, in rt/task/yield_now.cpp)", from the first
// Todo message in `text`; empty when there is none.
std::string todo_exercise(const std::string& text);

// The exercise a failed run stopped at: named by the test's own failure
// messages first, then by an exception that reached std::terminate, then by
// the first rt::Todo thrown. Empty when no stub was reached.
std::string unfinished_exercise(const std::string& failure_messages, const std::string& output);

}  // namespace grader
