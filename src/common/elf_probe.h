// Minimal facts about an ELF file that collect needs before running it.
#pragma once
#include <string>

namespace erkit::common {

struct ElfProbe {
  bool is_elf = false;
  bool is_dynamic = false;  // has PT_INTERP: the dynamic loader will honour LD_PRELOAD
  bool is_64bit = false;
  std::string machine;      // "x86_64", "aarch64", ...
  std::string error;
};

ElfProbe probe_elf(const std::string& path);

}  // namespace erkit::common
