// The main() of the capstone's unit tests: plain doctest, not graded.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
