// A macro over several lines, spliced with backslashes.
#define RT_ASSERT(condition) \
  do {                       \
    if (!(condition)) throw 1; \
  } while (false)
namespace rt {
inline void check(bool ok) { RT_ASSERT(ok); }
}  // namespace rt
