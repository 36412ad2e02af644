// expect: calls kill()
// libc's kill declared again in the runtime's namespace, as extern "C"
// (the same function as the global one), and called unqualified.
namespace rt {
extern "C" int kill(int pid, int signal);
void stop(int pid) { kill(pid, 9); }
}  // namespace rt
