// A task with a method named kill(): declared, defined and called.
#include <string>
namespace rt {
class Task {
 public:
  void kill();
  bool kill(int reason);
  bool killed() const { return killed_; }
 private:
  bool killed_ = false;
};
void Task::kill() { killed_ = true; }
bool Task::kill(int) { kill(); return true; }
void cancel(Task& task, Task* other) {
  task.kill();
  other->kill(3);
}
}  // namespace rt
