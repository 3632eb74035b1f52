#include "kernel/privileges.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "kernel/kallsyms.h"

namespace erkit::kernel {

namespace {
constexpr int kCapSysAdmin = 21, kCapSyslog = 34, kCapPerfmon = 38;

int read_int(const std::string& path, int fallback) {
  std::string s = read_text_file(path);
  if (s.empty()) return fallback;
  return std::atoi(s.c_str());
}
}  // namespace

bool Privileges::system_wide() const { return cap_perfmon || cap_sys_admin || paranoid <= 0; }
bool Privileges::kernel_samples() const { return cap_perfmon || cap_sys_admin || paranoid <= 1; }
bool Privileges::kernel_symbols() const {
  if (kptr_restrict >= 2) return false;
  if (kptr_restrict == 1) return cap_syslog;
  return cap_syslog || paranoid <= 1;  // kptr_restrict 0 still hides them when perf is paranoid (kallsyms_show_value)
}

std::vector<std::string> Privileges::missing(bool need_system_wide) const {
  std::vector<std::string> out;
  if (need_system_wide && !system_wide())
    out.push_back(
        "profiling every CPU needs root, CAP_PERFMON (or CAP_SYS_ADMIN), or kernel.perf_event_paranoid <= 0 "
        "(now " + std::to_string(paranoid) + "): sysctl -w kernel.perf_event_paranoid=0, or "
        "setcap cap_perfmon,cap_syslog+ep on er_kernel");
  else if (!kernel_samples())
    out.push_back("kernel call stacks need root, CAP_PERFMON, or kernel.perf_event_paranoid <= 1 (now " +
                  std::to_string(paranoid) + "): sysctl -w kernel.perf_event_paranoid=1");
  if (!kernel_symbols()) {
    if (kptr_restrict >= 2)
      out.push_back("kernel symbol addresses are hidden from everyone: kernel.kptr_restrict is " +
                    std::to_string(kptr_restrict) + ": sysctl -w kernel.kptr_restrict=1 (and give CAP_SYSLOG) or 0");
    else if (kptr_restrict == 1)
      out.push_back("kernel symbol addresses are hidden: kernel.kptr_restrict is 1 and CAP_SYSLOG is missing: "
                    "run as root, setcap cap_syslog+ep on er_kernel, or sysctl -w kernel.kptr_restrict=0 with "
                    "kernel.perf_event_paranoid <= 1");
    else
      out.push_back("kernel symbol addresses are hidden: kernel.perf_event_paranoid is " + std::to_string(paranoid) +
                    " (> 1) and CAP_SYSLOG is missing: sysctl -w kernel.perf_event_paranoid=1, or setcap "
                    "cap_syslog+ep on er_kernel");
  }
  return out;
}

Privileges privileges_from(const std::string& status, int euid, int paranoid, int kptr) {
  Privileges p;
  p.root = euid == 0;
  p.paranoid = paranoid;
  p.kptr_restrict = kptr;
  std::istringstream in(status);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("CapEff:", 0) != 0) continue;
    uint64_t caps = std::strtoull(line.c_str() + 7, nullptr, 16);
    p.cap_sys_admin = caps >> kCapSysAdmin & 1;
    p.cap_syslog = caps >> kCapSyslog & 1;
    p.cap_perfmon = caps >> kCapPerfmon & 1;
  }
  return p;
}

Privileges read_privileges() {
  return privileges_from(read_text_file("/proc/self/status"), int(geteuid()),
                         read_int("/proc/sys/kernel/perf_event_paranoid", 2), read_int("/proc/sys/kernel/kptr_restrict", 1));
}

}  // namespace erkit::kernel
