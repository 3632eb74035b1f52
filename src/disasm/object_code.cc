#include "disasm/object_code.h"

#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace erkit::disasm {

const char* arch_name(Arch a) {
  switch (a) {
    case Arch::X86_64: return "x86-64";
    case Arch::AArch64: return "aarch64";
    default: return "unknown";
  }
}

std::unique_ptr<ObjectCode> ObjectCode::open(const std::string& path, std::string* error) {
  elf_version(EV_CURRENT);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = path + ": " + std::strerror(errno);
    return nullptr;
  }
  Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  if (!elf || elf_kind(elf) != ELF_K_ELF) {
    *error = path + ": not an ELF file";
    if (elf) elf_end(elf);
    ::close(fd);
    return nullptr;
  }
  auto code = std::unique_ptr<ObjectCode>(new ObjectCode);
  code->path_ = path;
  GElf_Ehdr eh;
  if (gelf_getehdr(elf, &eh)) {
    code->arch_ = eh.e_machine == EM_X86_64 ? Arch::X86_64 : eh.e_machine == EM_AARCH64 ? Arch::AArch64 : Arch::Unknown;
    code->relocatable_ = eh.e_type == ET_REL;
  }
  std::unique_ptr<symbols::RelocatableObject> layout;
  if (code->relocatable_) {
    std::string lerr;
    layout = symbols::RelocatableObject::open(path, &lerr);
  }
  size_t shstrndx = 0;
  elf_getshdrstrndx(elf, &shstrndx);
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR)) continue;
    Elf_Data* d = elf_getdata(scn, nullptr);
    if (!d || !d->d_buf) continue;
    CodeSection s;
    const char* name = elf_strptr(elf, shstrndx, sh.sh_name);
    s.name = name ? name : "";
    s.addr = sh.sh_addr;
    if (layout) {
      // A .o: every section is at 0 in the file; take libdwfl's layout, the one symbols and
      // lines use, and the section's relocations.
      for (const auto& p : layout->sections())
        if (p.index == elf_ndxscn(scn)) {
          s.addr = p.addr;
          s.relocs = p.relocs;
        }
    }
    const auto* p = static_cast<const uint8_t*>(d->d_buf);
    s.bytes.assign(p, p + d->d_size);
    code->sections_.push_back(std::move(s));
  }
  elf_end(elf);
  ::close(fd);
  if (code->sections_.empty()) {
    *error = path + ": no executable code (stripped of sections, or a separate debug file)";
    return nullptr;
  }
  return code;
}

const CodeSection* ObjectCode::section_at(uint64_t addr) const {
  const CodeSection* found = nullptr;
  for (const auto& s : sections_) {
    if (addr < s.addr || addr >= s.addr + s.bytes.size()) continue;
    if (!found || s.name == ".text") found = &s;  // a .o without its layout: sections overlap
  }
  return found;
}

std::vector<uint8_t> ObjectCode::bytes(uint64_t lo, uint64_t hi) const {
  const CodeSection* s = section_at(lo);
  if (!s || hi <= lo) return {};
  uint64_t end = std::min<uint64_t>(hi, s->addr + s->bytes.size());
  return std::vector<uint8_t>(s->bytes.begin() + (lo - s->addr), s->bytes.begin() + (end - s->addr));
}

}  // namespace erkit::disasm
