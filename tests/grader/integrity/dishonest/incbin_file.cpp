// expect: pastes a file into the binary (.incbin)
// A root-only file's bytes in the student's object, for a test to print.
asm(".section .rodata\n"
    ".global leaked\nleaked:\n"
    ".inc" "bin \"/etc/shadow\"\n"
    ".byte 0\n.previous");
