// A runtime's own checking and logging macros. They share a prefix with
// doctest's (CHECK_INVARIANT, REQUIRES, WARN_UNUSED, FAILED), or, in a .cpp
// file that no test includes, a name of its messages (INFO): none is a
// redefinition of what decides a test.
#include <cstdio>
#include <cstdlib>
#define CHECK_INVARIANT(condition) \
  do {                             \
    if (!(condition)) std::abort(); \
  } while (0)
#define REQUIRES(condition) CHECK_INVARIANT(condition)
#define WARN_UNUSED [[nodiscard]]
#define FAILED(status) ((status) < 0)
#define INFO(...) std::fprintf(stderr, __VA_ARGS__)
namespace rt {
WARN_UNUSED int checked(int status) {
  REQUIRES(!FAILED(status));
  INFO("status %d\n", status);
  return status;
}
}  // namespace rt
