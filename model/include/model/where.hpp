// A place in the source, taken where an operation is called: what
// std::source_location gives, written with the builtins that g++ and
// clang++ 14 both have (clang++ 14 has no std::source_location).
#pragma once

namespace model {

class Where {
 public:
  constexpr Where() = default;
  static constexpr Where current(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE()) {
    return Where(file, line);
  }
  constexpr const char* file_name() const { return file_; }
  constexpr unsigned line() const { return line_; }

 private:
  constexpr Where(const char* file, unsigned line) : file_(file), line_(line) {}
  const char* file_ = "";
  unsigned line_ = 0;
};

}  // namespace model
