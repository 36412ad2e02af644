// What the integrity scan knows of the sanitizers, read from the machine
// rather than kept as a list by hand: the names their runtimes own (a
// program that calls or defines one changes what the sanitizer reports),
// and the calls the compiler emits into a sanitizer build on its own.
#pragma once

#include <set>
#include <string>

namespace grader {

class SanitizerNames {
 public:
  // Reads both sets (once per grader run; a few tenths of a second).
  // Throws ScanError (integrity.hpp) when the runtimes cannot be read.
  static const SanitizerNames& installed();

  // A name the installed sanitizer runtimes export as their own: an
  // annotation (AnnotateIgnoreReadsBegin, __tsan_acquire), a setting or
  // report hook (__asan_default_options, __sanitizer_set_report_path), an
  // entry point of the instrumentation.
  bool owned_by_runtime(const std::string& name) const { return runtime_.count(name) > 0; }
  // An entry point g++ calls in the code it instruments (__tsan_read4,
  // __asan_stack_malloc_2): a reference to one is the compiler's, not the
  // student's.
  bool emitted_by_compiler(const std::string& name) const;

 private:
  std::set<std::string> runtime_;
  std::set<std::string> emitted_;
  std::set<std::string> emitted_numbered_;  // prefixes followed by digits
};

}  // namespace grader
