// expect: runs code before main() (gnu::constructor)
// expect: runs code outside main() (.ctors)
// expect: makes the assembler read a file (.include)
// expect: calls kill() through syscall (SYS_kill)
// Code before main by the attribute's other spellings and an old
// section; a file read by the assembler; a signal sent by its number.
#include <sys/syscall.h>
#include <unistd.h>
[[using gnu: used, constructor]] static void early() {}
__attribute__((section(".ctors"))) static void (*g_early)() = early;
asm(".include \"/etc/hostname\"");
static long g_sent = syscall(SYS_kill, 1, 0);
