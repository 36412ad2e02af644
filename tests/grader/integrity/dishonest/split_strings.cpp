// expect: reads /proc
// expect: names the grader's internals (grader-token)
// expect: calls kill()
// expect: calls getppid()
// expect: calls prctl()
// expect: calls fork()
// expect: declares libc's write() itself
// expect: runs code before main() (__attribute__((constructor)
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>
const char* where = "/pr" "oc/self/cmd" "line";
const char* token = "--grader-" "token=";
void stop() { ::kill(getppid(), SIGSTOP); prctl(PR_SET_PTRACER, 0, 0, 0, 0); }
int spawn() { return fork(); }
extern "C" { long write(int, const void*, unsigned long); }
__attribute__((constructor)) void early() {}
