// A process's threads as /proc describes them; see proc_threads.hpp.
#include "proc_threads.hpp"

#include <dirent.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace grader {

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// The fields of a /proc stat line after the command name, which may hold
// spaces and parentheses: they follow the last ')'.
std::vector<std::string> stat_fields(const std::string& line, std::string* name) {
  auto open = line.find('(');
  auto close = line.rfind(')');
  std::vector<std::string> fields;
  if (open == std::string::npos || close == std::string::npos || close < open) return fields;
  if (name) *name = line.substr(open + 1, close - open - 1);
  std::istringstream rest(line.substr(close + 1));
  for (std::string field; rest >> field;) fields.push_back(field);
  return fields;
}

// utime and stime are the 14th and 15th fields of a stat line, the 12th
// and 13th after the command name.
long cpu_ticks(const std::vector<std::string>& fields) {
  if (fields.size() < 13) return 0;
  return std::atol(fields[11].c_str()) + std::atol(fields[12].c_str());
}

std::vector<ThreadState> read_threads(pid_t pid) {
  std::vector<ThreadState> threads;
  std::string dir = fmt::format("/proc/{}/task", pid);
  DIR* tasks = opendir(dir.c_str());
  if (tasks == nullptr) return threads;
  while (dirent* entry = readdir(tasks)) {
    if (entry->d_name[0] == '.') continue;
    ThreadState t;
    t.tid = static_cast<pid_t>(std::atol(entry->d_name));
    std::string base = dir + "/" + entry->d_name;
    std::vector<std::string> fields = stat_fields(read_first_line(base + "/stat"), &t.name);
    if (fields.empty()) continue;
    t.state = fields[0].empty() ? '?' : fields[0][0];
    t.ticks = cpu_ticks(fields);
    t.waits_in = read_first_line(base + "/wchan");
    if (t.waits_in == "0") t.waits_in.clear();
    threads.push_back(t);
  }
  closedir(tasks);
  std::sort(threads.begin(), threads.end(),
            [](const ThreadState& a, const ThreadState& b) { return a.tid < b.tid; });
  return threads;
}

}  // namespace grader
