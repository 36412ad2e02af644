// expect: runs code before main() (init_priority)
// A static object made before every other static initializer, as early as
// the test main's own constructor that takes its token.
struct Early {
  Early() {}
};
Early early __attribute__((init_priority(101)));
