// A worker count that respects the container's CPU quota, as Rust's
// available_parallelism (and so Tokio's default) does: it reads the
// process's own cgroup files under /proc/self, nothing else there.
#include <fstream>
#include <string>
#include <thread>
namespace rt {
unsigned cgroup_aware_workers() {
  std::ifstream cgroup("/proc/self/cgroup");
  std::ifstream mounts("/proc/self/mountinfo");
  std::string line;
  bool v2 = std::getline(cgroup, line) && line.rfind("0::", 0) == 0;
  std::ifstream max(v2 ? "/sys/fs/cgroup/cpu.max" : "/sys/fs/cgroup/cpu/cpu.cfs_quota_us");
  long quota = 0;
  long period = 100000;
  if (max >> quota >> period && quota > 0 && period > 0)
    return static_cast<unsigned>((quota + period - 1) / period);
  return std::thread::hardware_concurrency();
}
}  // namespace rt
