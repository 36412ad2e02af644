// The student's record of grades; see grade_record.hpp.
#include "grade_record.hpp"

#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "result_files.hpp"
#include "usage_error.hpp"

namespace grader {

using nlohmann::json;

namespace {

constexpr const char about[] =
    "every chapter's last grade, kept by the grader (--grades); scripts/status shows it";

json to_json(const ChapterGrade& g) {
  return {{"score", g.score},         {"max_score", g.max_score}, {"graded_at", g.graded_at},
          {"sanitizer", g.sanitizer}, {"repeat", g.repeat},       {"tests", g.tests},
          {"passed", g.passed},       {"not_started", g.not_started}};
}

ChapterGrade from_json(const json& entry) {
  ChapterGrade g;
  g.score = entry.at("score").get<std::int64_t>();
  g.max_score = entry.at("max_score").get<std::int64_t>();
  g.graded_at = entry.value("graded_at", "");
  g.sanitizer = entry.value("sanitizer", "none");
  g.repeat = entry.value("repeat", 1);
  g.tests = entry.value("tests", 0);
  g.passed = entry.value("passed", 0);
  g.not_started = entry.value("not_started", 0);
  return g;
}

std::string write_record(const GradeRecord& record) {
  json chapters = json::object();
  for (const auto& [chapter, grade] : record) chapters[chapter] = to_json(grade);
  json document = {{"about", about}, {"chapters", chapters}};
  return document.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace

GradeRecord read_grade_record(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::stringstream text;
  text << in.rdbuf();
  GradeRecord record;
  try {
    json document = json::parse(text.str());
    for (const auto& [chapter, entry] : document.at("chapters").items())
      record[chapter] = from_json(entry);
  } catch (const json::exception& e) {
    throw UsageError(path + " is not a record of grades written by the grader (" + e.what() +
                     "); delete it and grade again");
  }
  return record;
}

void record_grade(const std::string& path, const std::string& chapter, const ChapterGrade& grade) {
  GradeRecord record;
  try {
    record = read_grade_record(path);
  } catch (const UsageError&) {
    // A damaged record is replaced rather than left to fail every grade.
  }
  record[chapter] = grade;
  replace_file(path, write_record(record));
}

std::string local_time_now() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &local);
  return text;
}

}  // namespace grader
