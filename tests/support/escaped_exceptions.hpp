// Naming an unfinished exercise wherever its rt::Todo goes. A stub's
// rt::Todo thrown on the test's own thread fails the test with its message;
// thrown anywhere else it may never reach the test: on a worker thread, or
// in a destructor, it reaches std::terminate; in a task, it is kept for a
// JoinHandle nobody may await, and the test then waits for what the stub
// should have done. So every test binary prints, on its output, one line
// for the first rt::Todo thrown in its process and one for an exception
// that reaches std::terminate, both holding the exception's message
// ("TODO: exercise NN name (file) is not done yet"), which the grader reads
// to report the test as "not started" and to name the exercise.
#pragma once

namespace grading {

// Called first thing in main: installs the terminate handler. The note
// about the first rt::Todo needs nothing installed (see the .cpp file).
void report_escaped_exceptions();

}  // namespace grading
