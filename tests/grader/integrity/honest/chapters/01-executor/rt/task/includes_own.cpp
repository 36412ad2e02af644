// Honest: a file of the chapter includes another of its files by a
// relative path that stays inside the chapter's folder, and the course's
// headers by the include path.
#include "../scheduler/park.hpp"
#include "./cell.hpp"
#include "rt/task/task.hpp"
