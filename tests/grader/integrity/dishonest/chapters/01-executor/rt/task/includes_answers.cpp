// expect: includes a file outside its chapter's folder (../../../../solutions/01-executor/rt/task/cell.cpp)
// expect: includes a file by its absolute path (/var/tmp/grade/course/tests/hidden/01-executor/extra_test.cpp)
// A student's file that reaches for the reference solution and the hidden
// tests by their paths in the grader's copy: the build's view holds
// neither, and the scan says what was asked for.
#include "../../../../solutions/01-executor/rt/task/cell.cpp"
#include "/var/tmp/grade/course/tests/hidden/01-executor/extra_test.cpp"
