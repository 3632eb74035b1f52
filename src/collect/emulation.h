// Running a target built for another machine under qemu-user (docs/platforms.md): an aarch64
// program profiled from x86-64 runs as `qemu-aarch64 -L <sysroot> ... program args`, with the
// aarch64 collector library preloaded into the emulated program (not into qemu itself).
#pragma once
#include <string>
#include <vector>

namespace erkit::collect {

struct Emulation {
  std::string machine;   // the target's, e.g. "aarch64"; empty: the target runs natively
  std::string emulator;  // absolute path of qemu-<machine>
  std::string sysroot;   // qemu's -L: where the target's dynamic loader and libraries are
  std::string lib_subdir;  // where that machine's collector lives under lib/: "aarch64-linux-gnu"
};

// The machine collect itself was built for ("x86_64", "aarch64").
const char* host_machine();

// How to run a target whose ELF machine is `target_machine`. Native: an empty Emulation. Another
// machine: the emulator (ERKIT_QEMU, else qemu-<machine> or qemu-<machine>-static in PATH) and
// its sysroot (QEMU_LD_PREFIX, else /usr/<machine>-linux-gnu), or false with *error set.
bool plan_emulation(const std::string& target_machine, Emulation* em, std::string* error);

// The argv that runs `program` (argv[0] `argv0`, then `args`) under the emulator with
// `preload` in the emulated program's LD_PRELOAD.
std::vector<std::string> emulated_argv(const Emulation& em, const std::string& preload, const std::string& program,
                                       const std::vector<std::string>& argv);

}  // namespace erkit::collect
