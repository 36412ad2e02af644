// Which chapter a student is on, for a grade that names none: the first
// chapter that was not at full marks at its last grade (the first chapter
// of all on a fresh clone), so that the first grade takes a minute and
// speaks of one chapter, not of every starter in the course.
#pragma once

#include <string>
#include <vector>

#include "grade_record.hpp"

namespace grader {

struct CurrentChapter {
  std::string chapter;
  std::string why;  // one line for the student: what was chosen, and why
};

CurrentChapter current_chapter(const std::vector<std::string>& chapters,
                               const GradeRecord& record);

}  // namespace grader
