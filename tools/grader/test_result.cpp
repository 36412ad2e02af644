// Names of the test statuses, as every report shows them.
#include "test_result.hpp"

namespace grader {

std::string status_name(Status status) {
  switch (status) {
    case Status::pass:
      return "pass";
    case Status::fail:
      return "fail";
    case Status::crash:
      return "crash";
    case Status::timeout:
      return "timeout";
    case Status::exited_early:
      return "exited early";
    case Status::sanitizer:
      return "sanitizer";
    case Status::does_not_compile:
      return "does not compile";
    case Status::not_started:
      return "not started";
    case Status::error:
      break;
  }
  return "error";
}

std::string failed_mode(const TestResult& r) {
  if (r.status == Status::pass || r.modes.empty()) return "";
  return r.modes.back().first;
}

}  // namespace grader
