// Small ELF queries that need no symbol index: build-id, static linking, sections.
#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "symbols/internal.h"

namespace erkit::symbols {
namespace {

std::string hex(const uint8_t* p, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    s += kDigits[p[i] >> 4];
    s += kDigits[p[i] & 15];
  }
  return s;
}

std::string build_id_in(Elf_Data* data) {
  size_t off = 0, name_off = 0, desc_off = 0;
  GElf_Nhdr nhdr;
  while ((off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
    const char* base = static_cast<const char*>(data->d_buf);
    if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
        std::memcmp(base + name_off, "GNU", 4) == 0) {
      return hex(reinterpret_cast<const uint8_t*>(base + desc_off), nhdr.n_descsz);
    }
  }
  return {};
}

// RAII for a file opened only to answer one question.
struct ElfHandle {
  int fd = -1;
  Elf* elf = nullptr;
  ElfHandle(const std::string& path, std::string* error) {
    elf_version(EV_CURRENT);
    // O_NONBLOCK: a FIFO named by a damaged experiment must not block (issue 11).
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
      if (error) *error = path + ": " + std::strerror(errno);
      return;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      if (error) *error = path + ": not a regular file";
      return;
    }
    elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
      if (error) *error = path + ": not an ELF file";
      if (elf) elf_end(elf);
      elf = nullptr;
    }
  }
  ~ElfHandle() {
    if (elf) elf_end(elf);
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string build_id_of(Elf* elf) {
  // Sections first: a separate debug file keeps the note section but its segments
  // may not be readable; fall back to PT_NOTE for files without section headers.
  for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn)) != nullptr;) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE) {
      if (Elf_Data* d = elf_getdata(scn, nullptr)) {
        std::string id = build_id_in(d);
        if (!id.empty()) return id;
      }
    }
  }
  size_t phnum = 0;
  if (elf_getphdrnum(elf, &phnum) != 0) return {};
  for (size_t i = 0; i < phnum; ++i) {
    GElf_Phdr ph;
    if (gelf_getphdr(elf, static_cast<int>(i), &ph) && ph.p_type == PT_NOTE) {
      if (Elf_Data* d = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz, ELF_T_NHDR)) {
        std::string id = build_id_in(d);
        if (!id.empty()) return id;
      }
    }
  }
  return {};
}

std::vector<SectionInfo> alloc_sections(Elf* elf) {
  std::vector<SectionInfo> out;
  size_t shstrndx = 0;
  if (elf_getshdrstrndx(elf, &shstrndx) != 0) return out;
  for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn)) != nullptr;) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || sh.sh_size == 0) continue;
    const char* name = elf_strptr(elf, shstrndx, sh.sh_name);
    out.push_back({name ? name : "", sh.sh_addr, sh.sh_size, (sh.sh_flags & SHF_EXECINSTR) != 0});
  }
  std::sort(out.begin(), out.end(), [](const SectionInfo& a, const SectionInfo& b) { return a.addr < b.addr; });
  return out;
}

std::string read_build_id(const std::string& path, std::string* error) {
  ElfHandle h(path, error);
  return h.elf ? build_id_of(h.elf) : std::string();
}

bool is_statically_linked(const std::string& path, std::string* error) {
  ElfHandle h(path, error);
  if (!h.elf) return false;
  size_t phnum = 0;
  if (elf_getphdrnum(h.elf, &phnum) != 0) return false;
  bool interp = false;
  GElf_Phdr dyn{};
  bool has_dyn = false;
  for (size_t i = 0; i < phnum; ++i) {
    GElf_Phdr ph;
    if (!gelf_getphdr(h.elf, static_cast<int>(i), &ph)) continue;
    if (ph.p_type == PT_INTERP) interp = true;
    if (ph.p_type == PT_DYNAMIC) {
      dyn = ph;
      has_dyn = true;
    }
  }
  if (interp) return false;
  if (!has_dyn) return true;
  // A static-pie executable has a dynamic section (for its own relocations) but no
  // interpreter, so LD_PRELOAD is ignored just as for a classic static binary; it is
  // told apart from a shared library by DF_1_PIE.
  Elf_Data* d = elf_getdata_rawchunk(h.elf, dyn.p_offset, dyn.p_filesz, ELF_T_DYN);
  if (!d) return false;
  size_t n = dyn.p_filesz / gelf_fsize(h.elf, ELF_T_DYN, 1, EV_CURRENT);
  for (size_t i = 0; i < n; ++i) {
    GElf_Dyn e;
    if (gelf_getdyn(d, static_cast<int>(i), &e) && e.d_tag == DT_FLAGS_1 && (e.d_un.d_val & DF_1_PIE)) {
      return true;
    }
  }
  return false;
}

}  // namespace erkit::symbols
