// Quotes in literals, and comments and strings that mention fork.
#include <stdexcept>
namespace rt {
char quote() { return '"'; }  // not fork(), which a runtime never needs
char apostrophe() { return '\''; } /* nor kill(getppid(), SIGSTOP) */
const char* escaped() { return "a \" quote, and \"fork()\""; }
long big() { return 1'000'000; }
const char* raw() { return R"x(a raw string: "kill(1, 9)" and )" and system("ls"))x"; }
void refuse() { throw std::runtime_error("spawn: cannot fork() a task"); }
}  // namespace rt
