// The student's record: every chapter's last grade, kept in one JSON file
// (scripts/grade keeps it in build/grades.json; --grades FILE), so that
// grading chapter 2 does not forget chapter 1. The grader rewrites a
// chapter's entry each time it has graded all of that chapter's tests of
// the student's own work in chapters/; scripts/status shows the entries,
// and a grade that names no chapter starts from the first that is not at
// full marks (current_chapter.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace grader {

struct ChapterGrade {
  std::int64_t score = 0;
  std::int64_t max_score = 0;
  std::string graded_at;  // local time, "2026-12-01 23:50"
  std::string sanitizer = "none";
  int repeat = 1;
  int tests = 0;  // the chapter's counted tests
  int passed = 0;
  int not_started = 0;

  bool full_marks() const { return max_score > 0 && score == max_score; }
};

using GradeRecord = std::map<std::string, ChapterGrade>;  // by chapter, "01-executor"

// The record in `path`; empty when there is no such file yet. Throws
// UsageError when the file is not a record the grader wrote.
GradeRecord read_grade_record(const std::string& path);

// Replaces `chapter`'s entry in the record at `path` (creating it), keeping
// every other chapter's. Throws std::system_error when it cannot write.
void record_grade(const std::string& path, const std::string& chapter, const ChapterGrade& grade);

// Now, as ChapterGrade::graded_at shows it.
std::string local_time_now();

}  // namespace grader
