// rt::Todo: what an unfinished exercise throws.
//
// Every exercise in a starter is a stub that throws this, beside a TODO and a
// hint, so that a starter compiles from the first minute and each test that
// needs the exercise fails with a message naming it.
#pragma once

#include <stdexcept>
#include <string>

namespace rt {

class Todo : public std::logic_error {
 public:
  explicit Todo(const std::string& exercise)
      : std::logic_error("TODO: exercise " + exercise + " is not done yet") {}
};

}  // namespace rt
