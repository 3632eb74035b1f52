#include "kernel/kernel_elf.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace erkit::kernel {

namespace {

template <typename T>
void put(std::vector<uint8_t>& out, const T& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

void pad_to(std::vector<uint8_t>& out, size_t align) {
  while (out.size() % align) out.push_back(0);
}

std::vector<uint8_t> hex_bytes(const std::string& hex) {
  std::vector<uint8_t> b;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) b.push_back(uint8_t(std::strtoul(hex.substr(i, 2).c_str(), nullptr, 16)));
  return b;
}

}  // namespace

bool write_kernel_elf(const std::string& path, const KernelObject& o, const std::vector<uint8_t>& code,
                      std::string* error) {
  const bool have_code = !code.empty() && code.size() == o.hi - o.lo;
  // Layout: ELF header, 2 program headers, note, code, symtab, strtab, shstrtab, section headers.
  std::vector<uint8_t> body;  // everything after the headers
  const size_t hdrs = sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr);
  // Note.
  size_t note_off = hdrs;
  std::vector<uint8_t> id = hex_bytes(o.build_id);
  std::vector<uint8_t> note;
  if (!id.empty()) {
    put(note, uint32_t(4));
    put(note, uint32_t(id.size()));
    put(note, uint32_t(NT_GNU_BUILD_ID));
    note.insert(note.end(), {'G', 'N', 'U', 0});
    note.insert(note.end(), id.begin(), id.end());
    pad_to(note, 4);
  }
  body.insert(body.end(), note.begin(), note.end());
  pad_to(body, 16);
  size_t code_off = hdrs + body.size();
  if (have_code) body.insert(body.end(), code.begin(), code.end());
  pad_to(body, 8);
  // Symbols and their names.
  std::vector<uint8_t> strtab{0};
  std::vector<uint8_t> symtab(sizeof(Elf64_Sym), 0);
  size_t nlocal = 1;
  for (int pass = 0; pass < 2; ++pass) {  // locals first, as ELF requires
    for (const auto& s : o.symbols) {
      if (s.global != (pass == 1)) continue;
      Elf64_Sym sym{};
      sym.st_name = uint32_t(strtab.size());
      strtab.insert(strtab.end(), s.name.begin(), s.name.end());
      strtab.push_back(0);
      sym.st_info = ELF64_ST_INFO(s.global ? STB_GLOBAL : STB_LOCAL, STT_FUNC);
      sym.st_shndx = 1;  // .text
      sym.st_value = s.addr;
      sym.st_size = s.size;
      put(symtab, sym);
      if (pass == 0) ++nlocal;
    }
  }
  size_t symtab_off = hdrs + body.size();
  body.insert(body.end(), symtab.begin(), symtab.end());
  size_t strtab_off = hdrs + body.size();
  body.insert(body.end(), strtab.begin(), strtab.end());
  const char shstr[] = "\0.text\0.note.gnu.build-id\0.symtab\0.strtab\0.shstrtab";
  size_t shstr_off = hdrs + body.size();
  body.insert(body.end(), shstr, shstr + sizeof shstr);
  pad_to(body, 8);
  size_t sh_off = hdrs + body.size();

  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_EXEC;
#if defined(__aarch64__)
  eh.e_machine = EM_AARCH64;
#else
  eh.e_machine = EM_X86_64;
#endif
  eh.e_version = EV_CURRENT;
  eh.e_entry = o.lo;
  eh.e_phoff = sizeof(Elf64_Ehdr);
  eh.e_shoff = sh_off;
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  eh.e_phentsize = sizeof(Elf64_Phdr);
  eh.e_phnum = 2;
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = 6;
  eh.e_shstrndx = 5;
  std::vector<uint8_t> out;
  put(out, eh);
  Elf64_Phdr load{};
  load.p_type = PT_LOAD;
  load.p_flags = PF_R | PF_X;
  load.p_offset = have_code ? code_off : 0;
  load.p_vaddr = load.p_paddr = o.lo;
  load.p_filesz = have_code ? code.size() : 0;
  load.p_memsz = o.hi - o.lo;
  load.p_align = have_code ? 16 : 0x1000;
  if (!have_code) load.p_offset = o.lo & 0xfff;  // offset and vaddr agree modulo the alignment
  put(out, load);
  Elf64_Phdr pn{};
  pn.p_type = PT_NOTE;
  pn.p_flags = PF_R;
  pn.p_offset = note_off;
  pn.p_filesz = pn.p_memsz = note.size();
  pn.p_align = 4;
  put(out, pn);
  out.insert(out.end(), body.begin(), body.end());
  auto sh = [&](uint32_t name, uint32_t type, uint64_t flags, uint64_t addr, uint64_t off, uint64_t size,
                uint32_t link, uint32_t info, uint64_t align, uint64_t entsize) {
    Elf64_Shdr s{};
    s.sh_name = name, s.sh_type = type, s.sh_flags = flags, s.sh_addr = addr, s.sh_offset = off;
    s.sh_size = size, s.sh_link = link, s.sh_info = info, s.sh_addralign = align, s.sh_entsize = entsize;
    put(out, s);
  };
  sh(0, SHT_NULL, 0, 0, 0, 0, 0, 0, 0, 0);
  sh(1, have_code ? SHT_PROGBITS : SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, o.lo, have_code ? code_off : note_off,
     o.hi - o.lo, 0, 0, 16, 0);
  sh(7, SHT_NOTE, note.empty() ? 0 : SHF_ALLOC, 0, note_off, note.size(), 0, 0, 4, 0);
  sh(26, SHT_SYMTAB, 0, 0, symtab_off, symtab.size(), 4, uint32_t(nlocal), 8, sizeof(Elf64_Sym));
  sh(34, SHT_STRTAB, 0, 0, strtab_off, strtab.size(), 0, 0, 1, 0);
  sh(42, SHT_STRTAB, 0, 0, shstr_off, sizeof shstr, 0, 0, 1, 0);

  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(out.data(), 1, out.size(), f) != out.size()) {
    if (error) *error = "cannot write " + path + ": " + std::strerror(errno);
    if (f) std::fclose(f);
    return false;
  }
  return std::fclose(f) == 0;
}

std::vector<uint8_t> read_kcore(uint64_t lo, uint64_t hi, std::string* why) {
  std::vector<uint8_t> out;
  int fd = open("/proc/kcore", O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (why) *why = std::string("/proc/kcore: ") + std::strerror(errno);
    return out;
  }
  Elf64_Ehdr eh;
  if (pread(fd, &eh, sizeof eh, 0) != ssize_t(sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
    if (why) *why = "/proc/kcore: not an ELF core file";
    close(fd);
    return out;
  }
  for (uint16_t i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    if (pread(fd, &ph, sizeof ph, off_t(eh.e_phoff + uint64_t(i) * eh.e_phentsize)) != ssize_t(sizeof ph)) break;
    if (ph.p_type != PT_LOAD || lo < ph.p_vaddr || hi > ph.p_vaddr + ph.p_filesz) continue;
    out.resize(hi - lo);
    ssize_t n = pread(fd, out.data(), out.size(), off_t(ph.p_offset + (lo - ph.p_vaddr)));
    if (n != ssize_t(out.size())) {
      if (why) *why = "/proc/kcore: short read";
      out.clear();
    }
    close(fd);
    return out;
  }
  if (why) *why = "/proc/kcore: no segment covers the kernel text";
  close(fd);
  return out;
}

}  // namespace erkit::kernel
