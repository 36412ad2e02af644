// expect: calls kill()
// A function of the runtime's own named kill, beside a call of libc's by
// its global name.
namespace rt {
void kill(int task, int reason);
void stop(int pid) { ::kill(pid, 9); }
}  // namespace rt
