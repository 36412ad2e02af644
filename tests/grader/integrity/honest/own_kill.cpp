// The runtime's own free functions named kill and system, declared in its
// namespace and called unqualified: not libc's (their symbols are
// _ZN2rt4kill... and _ZN2rt6system...).
namespace rt {
struct TaskRef {
  int id;
};
void kill(TaskRef task, int reason);
namespace detail {
bool system(const char* name);
}
void cancel_all(TaskRef* tasks, int n) {
  for (int i = 0; i < n; ++i) kill(tasks[i], 1);
}
bool check() { return detail::system("workers"); }
struct Pool {
  void stop(TaskRef t) { kill(t, 2); }
};
}  // namespace rt
