// What the kernel lets this user do for kernel profiling, and a precise account of what is
// missing (the Linux counterpart of the manual's DTrace set-up section; docs/er_kernel.md).
#pragma once
#include <string>
#include <vector>

namespace erkit::kernel {

struct Privileges {
  bool root = false;
  bool cap_perfmon = false, cap_sys_admin = false, cap_syslog = false;
  int paranoid = 2;      // /proc/sys/kernel/perf_event_paranoid (2 if unreadable)
  int kptr_restrict = 1; // /proc/sys/kernel/kptr_restrict
  // Derived.
  bool system_wide() const;     // per-CPU events of every process
  bool kernel_samples() const;  // samples and call stacks in kernel mode
  bool kernel_symbols() const;  // /proc/kallsyms shows real addresses
  // One line per missing privilege, with the fix; empty when everything is there.
  std::vector<std::string> missing(bool need_system_wide) const;
};

// Reads the running process's privileges and the sysctls (status text and sysctl values
// injectable for tests: pass "" to read the live files).
Privileges read_privileges();
Privileges privileges_from(const std::string& proc_status, int euid, int paranoid, int kptr_restrict);

}  // namespace erkit::kernel
