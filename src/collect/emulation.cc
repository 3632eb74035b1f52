#include "collect/emulation.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cstdlib>

#include "collect/path_search.h"

namespace erkit::collect {

const char* host_machine() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "other";
#endif
}

bool plan_emulation(const std::string& target_machine, Emulation* em, std::string* error) {
  *em = Emulation{};
  if (target_machine.empty() || target_machine == host_machine()) return true;
  if (target_machine != "aarch64") {
    *error = fmt::format("the target is built for another machine ({}) than collect ({}); only aarch64 "
                         "targets can be run under emulation (qemu-user)",
                         target_machine, host_machine());
    return false;
  }
  em->machine = target_machine;
  em->lib_subdir = target_machine + "-linux-gnu";
  if (const char* q = getenv("ERKIT_QEMU"); q && *q) {
    if (!is_executable_file(q)) {
      *error = fmt::format("ERKIT_QEMU={} is not an executable file", q);
      return false;
    }
    em->emulator = q;
  } else {
    for (const std::string& name : {"qemu-" + target_machine, "qemu-" + target_machine + "-static"})
      if (em->emulator.empty()) em->emulator = find_in_path(name);
    if (em->emulator.empty()) {
      *error = fmt::format("the target is an {} program and collect runs on {}: it needs qemu-{} (Debian "
                           "package qemu-user) in PATH, or ERKIT_QEMU",
                           target_machine, host_machine(), target_machine);
      return false;
    }
  }
  const char* root = getenv("QEMU_LD_PREFIX");
  em->sysroot = root && *root ? root : "/usr/" + em->lib_subdir;
  struct stat st;
  if (stat(em->sysroot.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    *error = fmt::format("the {} sysroot {} does not exist (Debian package libc6-{}-cross, or set "
                         "QEMU_LD_PREFIX)",
                         target_machine, em->sysroot, target_machine == "aarch64" ? "arm64" : target_machine);
    return false;
  }
  return true;
}

std::vector<std::string> emulated_argv(const Emulation& em, const std::string& preload, const std::string& program,
                                       const std::vector<std::string>& argv) {
  // -E sets the variable in the emulated program's environment only: qemu itself (a host
  // program) must not try to preload an aarch64 library. -0 keeps the target's own argv[0].
  std::vector<std::string> out = {em.emulator, "-L", em.sysroot, "-E", "LD_PRELOAD=" + preload};
  if (!argv.empty()) {
    out.push_back("-0");
    out.push_back(argv[0]);
  }
  out.push_back(program);
  for (size_t i = 1; i < argv.size(); ++i) out.push_back(argv[i]);
  return out;
}

}  // namespace erkit::collect
