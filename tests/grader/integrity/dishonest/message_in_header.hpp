// expect: redefines the test macro or name 'INFO'
// expect: reads /proc
// In a header, which tests include, doctest's INFO is doctest's; and
// /proc/self/cgroup is allowed, but not another file of /proc/self.
#define INFO(...) ((void)0)
inline const char* arguments_file() { return "/proc/self/cmdline"; }
