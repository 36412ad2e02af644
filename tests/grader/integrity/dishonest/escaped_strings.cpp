// expect: reads /proc
// expect: pastes a file into the binary (.incbin)
// Names spelled with escapes, and split by a macro that expands to
// nothing: the compiler reads "/proc" and ".incbin" all the same.
#define NOTHING
static const char* g_file = "/pr\x6f\143/self/maps";
asm(".inc" NOTHING "bin \"/etc/hostname\"");
