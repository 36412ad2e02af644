// Running under ThreadSanitizer or AddressSanitizer: which build directory,
// which options the tests get, and how a report is recognised in a test's
// output. A grade may run every test in several modes (--sanitize all:
// plain, then under each sanitizer); a test scores only if it passes in all.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace grader {

enum class Sanitizer { none, thread, address };

// The exit status the sanitizers are told to use, so a report is also
// visible in the status when its text was lost.
inline constexpr int sanitizer_exit_code = 66;

Sanitizer sanitizer_from_name(const std::string& name);  // "" means none
std::string sanitizer_name(Sanitizer s);                 // "none", "thread", "address"

// As reports name a mode: "plain", "thread", "address".
std::string mode_name(Sanitizer s);
// As a sentence says it: "plain", "under ThreadSanitizer", "under AddressSanitizer".
std::string mode_phrase(Sanitizer s);
// Every mode, in the order a grade in several modes runs them.
std::vector<Sanitizer> every_mode();
// What the result files call a grade's modes: one mode by its sanitizer_name
// ("none", "thread"), several by their mode names, "plain+thread+address".
std::string modes_label(const std::vector<Sanitizer>& modes);

// The sanitizer variables a test runs with, set in full by the grader.
std::vector<std::pair<std::string, std::string>> sanitizer_environment(Sanitizer s);

// The first lines of a sanitizer report in `output`, empty if there is none.
std::string find_sanitizer_report(const std::string& output);

}  // namespace grader
