// Relocatable objects in libdwfl's section layout (see relocatable.h; issue 15 item 8).
#include "symbols/relocatable.h"

#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "symbols/internal.h"

namespace erkit::symbols {
namespace {

char* g_debuginfo_path = nullptr;  // libdwfl's default; a .o carries its own DWARF

const Dwfl_Callbacks kCallbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &g_debuginfo_path,
};

// The relocations of the executable section `target` from the RELA section `rela`.
void read_relocs(Elf* elf, Elf_Scn* rela, const GElf_Shdr& rsh, PlacedSection* target) {
  Elf_Data* rd = elf_getdata(rela, nullptr);
  Elf_Scn* symscn = elf_getscn(elf, rsh.sh_link);
  GElf_Shdr ssh;
  if (!rd || !symscn || !gelf_getshdr(symscn, &ssh)) return;
  Elf_Data* sd = elf_getdata(symscn, nullptr);
  if (!sd || rsh.sh_entsize == 0) return;
  size_t n = rsh.sh_size / rsh.sh_entsize;
  for (size_t i = 0; i < n; ++i) {
    GElf_Rela r;
    if (!gelf_getrela(rd, int(i), &r)) continue;
    PlacedReloc p;
    p.at = target->addr + r.r_offset;
    p.type = uint32_t(GELF_R_TYPE(r.r_info));
    p.addend = r.r_addend;
    GElf_Sym sym;
    if (gelf_getsym(sd, int(GELF_R_SYM(r.r_info)), &sym)) {
      if (GELF_ST_TYPE(sym.st_info) != STT_SECTION) {
        const char* name = elf_strptr(elf, ssh.sh_link, sym.st_name);
        p.symbol = name ? name : "";
      }
      if (sym.st_shndx != SHN_UNDEF && sym.st_shndx < SHN_LORESERVE) {
        GElf_Shdr dsh;
        if (Elf_Scn* d = elf_getscn(elf, sym.st_shndx); d && gelf_getshdr(d, &dsh)) {
          p.defined = true;
          p.value = dsh.sh_addr + sym.st_value;  // a .o's symbol values are section offsets
        }
      }
    }
    target->relocs.push_back(std::move(p));
  }
}

}  // namespace

Dwfl_Module* report_at_file_addresses(Dwfl* dwfl, const std::string& path) {
  // base 0 with add_p_vaddr: module addresses are the file's own virtual addresses. A .o has
  // none: libdwfl lays its allocated sections out one after another from the base (and
  // relocates its DWARF to match). Not from 0: DWARF ranges at 0 are code the linker
  // discarded (dwarf_index.cc drops them), which would drop the .o's first function.
  const GElf_Addr base = is_relocatable(path) ? kRelocatableBase : 0;
  dwfl_report_begin(dwfl);
  Dwfl_Module* mod = dwfl_report_elf(dwfl, path.c_str(), path.c_str(), -1, base, true);
  dwfl_report_end(dwfl, nullptr, nullptr);
  return mod;
}

bool is_relocatable(const std::string& path) {
  elf_version(EV_CURRENT);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  struct stat st;
  bool rel = false;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    if (Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr)) {
      GElf_Ehdr eh;
      rel = elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &eh) && eh.e_type == ET_REL;
      elf_end(elf);
    }
  }
  ::close(fd);
  return rel;
}

struct RelocatableObject::Session {
  Dwfl* dwfl = nullptr;
  Dwfl_Module* mod = nullptr;
  ~Session() {
    if (dwfl) dwfl_end(dwfl);
  }
};

RelocatableObject::~RelocatableObject() = default;

std::unique_ptr<RelocatableObject> RelocatableObject::open(const std::string& path, std::string* error) {
  if (!is_relocatable(path)) {
    *error = path + ": not a relocatable object";
    return nullptr;
  }
  auto obj = std::unique_ptr<RelocatableObject>(new RelocatableObject);
  obj->session_ = std::make_unique<Session>();
  obj->session_->dwfl = dwfl_begin(&kCallbacks);
  if (!obj->session_->dwfl) {
    *error = path + ": " + dwfl_errmsg(-1);
    return nullptr;
  }
  Dwfl_Module* mod = report_at_file_addresses(obj->session_->dwfl, path);
  Dwarf_Addr bias = 0;
  Elf* elf = mod ? dwfl_module_getelf(mod, &bias) : nullptr;
  if (!elf) {
    *error = path + ": " + dwfl_errmsg(-1);
    return nullptr;
  }
  obj->session_->mod = mod;
  GElf_Ehdr eh;
  if (gelf_getehdr(elf, &eh)) obj->machine_ = eh.e_machine;
  size_t shstrndx = 0;
  elf_getshdrstrndx(elf, &shstrndx);
  // The section headers as libdwfl laid them out (it updates sh_addr in its copy).
  std::vector<PlacedSection> secs;
  for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn)) != nullptr;) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || sh.sh_size == 0) continue;
    PlacedSection s;
    s.index = uint32_t(elf_ndxscn(scn));
    const char* name = elf_strptr(elf, shstrndx, sh.sh_name);
    s.name = name ? name : "";
    s.addr = sh.sh_addr + bias;
    s.size = sh.sh_size;
    s.executable = (sh.sh_flags & SHF_EXECINSTR) != 0;
    secs.push_back(std::move(s));
  }
  for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn)) != nullptr;) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA) continue;
    auto t = std::find_if(secs.begin(), secs.end(), [&](const PlacedSection& s) { return s.index == sh.sh_info; });
    if (t != secs.end() && t->executable) read_relocs(elf, scn, sh, &*t);
  }
  for (auto& s : secs)
    std::sort(s.relocs.begin(), s.relocs.end(), [](const PlacedReloc& a, const PlacedReloc& b) { return a.at < b.at; });
  std::sort(secs.begin(), secs.end(), [](const PlacedSection& a, const PlacedSection& b) { return a.addr < b.addr; });
  obj->sections_ = std::move(secs);
  return obj;
}

const PlacedSection* RelocatableObject::section_at(uint64_t addr) const {
  for (const auto& s : sections_)
    if (addr >= s.addr && addr < s.addr + s.size) return &s;
  return nullptr;
}

Dwarf* RelocatableObject::dwarf() const {
  Dwarf_Addr bias = 0;
  return session_->mod ? dwfl_module_getdwarf(session_->mod, &bias) : nullptr;
}

}  // namespace erkit::symbols
