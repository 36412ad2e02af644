// A worker names its thread, as the multi-thread scheduler may.
#include <sys/prctl.h>
#include <string>
namespace rt {
void name_this_thread(const std::string& name) {
  prctl(PR_SET_NAME, name.c_str(), 0, 0, 0);
}
}  // namespace rt
