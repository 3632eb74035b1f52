#include "common/elf_probe.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <vector>

namespace erkit::common {

ElfProbe probe_elf(const std::string& path) {
  ElfProbe r;
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    r.error = "cannot open";
    return r;
  }
  unsigned char ident[EI_NIDENT] = {};
  f.read(reinterpret_cast<char*>(ident), EI_NIDENT);
  if (f.gcount() != EI_NIDENT || std::memcmp(ident, ELFMAG, SELFMAG) != 0) return r;
  r.is_elf = true;
  r.is_64bit = ident[EI_CLASS] == ELFCLASS64;
  if (!r.is_64bit) {
    r.error = "32-bit ELF files are not supported";
    return r;
  }
  f.seekg(0);
  Elf64_Ehdr eh;
  f.read(reinterpret_cast<char*>(&eh), sizeof eh);
  if (!f) {
    r.error = "truncated ELF header";
    return r;
  }
  r.machine = eh.e_machine == EM_X86_64 ? "x86_64" : eh.e_machine == EM_AARCH64 ? "aarch64" : "other";
  if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 4096) {
    r.error = "bad program headers";
    return r;
  }
  std::vector<Elf64_Phdr> ph(eh.e_phnum);
  f.seekg(std::streamoff(eh.e_phoff));
  f.read(reinterpret_cast<char*>(ph.data()), std::streamsize(ph.size() * sizeof(Elf64_Phdr)));
  if (!f) {
    r.error = "truncated program headers";
    return r;
  }
  for (const auto& p : ph)
    if (p.p_type == PT_INTERP) r.is_dynamic = true;
  return r;
}

}  // namespace erkit::common
