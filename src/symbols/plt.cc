// PLT entries named after the function they jump to. Instead of assuming a layout
// (header size, entry size, .plt vs .plt.sec, lazy vs BIND_NOW), each entry's
// indirect jump is decoded to find its GOT slot, and the dynamic relocation of that
// slot names the target. This covers .plt, .plt.sec and .plt.got on x86-64 and .plt
// on aarch64 with or without BTI.
#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "symbols/internal.h"

namespace erkit::symbols {
namespace {

struct Section {
  GElf_Shdr sh;
  Elf_Data* data;
  std::string name;
};

std::vector<Section> sections(Elf* elf) {
  std::vector<Section> out;
  size_t shstrndx = 0;
  if (elf_getshdrstrndx(elf, &shstrndx) != 0) return out;
  for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn)) != nullptr;) {
    Section s;
    if (!gelf_getshdr(scn, &s.sh)) continue;
    const char* n = elf_strptr(elf, shstrndx, s.sh.sh_name);
    s.name = n ? n : "";
    s.data = s.sh.sh_type == SHT_NOBITS ? nullptr : elf_getdata(scn, nullptr);
    out.push_back(std::move(s));
  }
  return out;
}

struct Relocs {
  std::unordered_map<uint64_t, std::string> by_slot;  // GOT slot address -> symbol
};

// Reads every dynamic relocation section that refers to dynsym.
Relocs read_relocs(Elf* elf, const std::vector<Section>& secs) {
  Relocs r;
  for (const Section& s : secs) {
    if ((s.sh.sh_type != SHT_RELA && s.sh.sh_type != SHT_REL) || !s.data) {
      continue;
    }
    Elf_Scn* symscn = elf_getscn(elf, s.sh.sh_link);
    GElf_Shdr symsh;
    if (!symscn || !gelf_getshdr(symscn, &symsh) || symsh.sh_type != SHT_DYNSYM) continue;
    Elf_Data* symdata = elf_getdata(symscn, nullptr);
    if (!symdata) continue;
    size_t n = s.sh.sh_entsize ? s.sh.sh_size / s.sh.sh_entsize : 0;
    for (size_t i = 0; i < n; ++i) {
      uint64_t off = 0, info = 0;
      if (s.sh.sh_type == SHT_RELA) {
        GElf_Rela rela;
        if (!gelf_getrela(s.data, static_cast<int>(i), &rela)) continue;
        off = rela.r_offset;
        info = rela.r_info;
      } else {
        GElf_Rel rel;
        if (!gelf_getrel(s.data, static_cast<int>(i), &rel)) continue;
        off = rel.r_offset;
        info = rel.r_info;
      }
      std::string name;
      GElf_Sym sym;
      if (GELF_R_SYM(info) != 0 && gelf_getsym(symdata, static_cast<int>(GELF_R_SYM(info)), &sym)) {
        const char* nm = elf_strptr(elf, symsh.sh_link, sym.st_name);
        if (nm) name = nm;
      }
      if (!name.empty()) r.by_slot.emplace(off, name);
    }
  }
  return r;
}

uint32_t le32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;  // both supported targets are little-endian
}

// x86-64: every entry holds `jmp *disp32(%rip)` (ff 25, maybe after bnd/endbr64).
// Lazy IBT stubs in .plt (push $index; jmp PLT0) run only on the first call; like
// perf we leave them unnamed, so they fall under the per-object `@plt` pseudo-function.
void scan_x86_64(const Section& s, const Relocs& r, std::vector<PltEntry>* out) {
  const auto* p = static_cast<const uint8_t*>(s.data->d_buf);
  size_t size = std::min<size_t>(s.data->d_size, s.sh.sh_size);
  size_t ent = s.sh.sh_entsize >= 8 ? s.sh.sh_entsize : 16;
  for (size_t o = 0; o + ent <= size; o += ent) {
    std::string name;
    for (size_t k = o; k + 6 <= o + ent && name.empty(); ++k) {
      if (p[k] == 0xff && p[k + 1] == 0x25) {
        int32_t disp = static_cast<int32_t>(le32(p + k + 2));
        uint64_t slot = s.sh.sh_addr + k + 6 + static_cast<int64_t>(disp);
        if (auto it = r.by_slot.find(slot); it != r.by_slot.end()) name = it->second;
        break;
      }
    }
    if (!name.empty()) out->push_back({s.sh.sh_addr + o, ent, name});
  }
}

// aarch64: `adrp x16, page; ldr x17, [x16, #off]; add x16, ...; br x17`, maybe
// preceded by `bti c`.
void scan_aarch64(const Section& s, const Relocs& r, std::vector<PltEntry>* out) {
  const auto* p = static_cast<const uint8_t*>(s.data->d_buf);
  size_t size = std::min<size_t>(s.data->d_size, s.sh.sh_size);
  std::vector<PltEntry> found;
  for (size_t o = 0; o + 8 <= size; o += 4) {
    uint32_t adrp = le32(p + o), ldr = le32(p + o + 4);
    if ((adrp & 0x9f00001f) != 0x90000010) continue;               // adrp x16
    if ((ldr & 0xffc003ff) != (0xf9400000 | (16u << 5) | 17u)) continue;  // ldr x17,[x16,#]
    int64_t imm = static_cast<int64_t>(((adrp >> 5) & 0x7ffff) << 2 | ((adrp >> 29) & 3));
    if (imm & (1 << 20)) imm -= (1 << 21);
    uint64_t pc = s.sh.sh_addr + o;
    uint64_t slot = (pc & ~uint64_t{0xfff}) + (imm << 12) + ((ldr >> 10) & 0xfff) * 8;
    uint64_t start = (o >= 4 && le32(p + o - 4) == 0xd503245f) ? pc - 4 : pc;
    auto it = r.by_slot.find(slot);
    found.push_back({start, 0, it == r.by_slot.end() ? std::string() : it->second});
  }
  for (size_t i = 0; i < found.size(); ++i) {
    uint64_t end = i + 1 < found.size() ? found[i + 1].addr : s.sh.sh_addr + s.sh.sh_size;
    found[i].size = std::min<uint64_t>(end - found[i].addr, 24);
    if (!found[i].symbol.empty()) out->push_back(found[i]);
  }
}

}  // namespace

std::vector<PltEntry> read_plt(Elf* elf) {
  std::vector<PltEntry> out;
  GElf_Ehdr eh;
  if (!gelf_getehdr(elf, &eh)) return out;
  std::vector<Section> secs = sections(elf);
  Relocs r;
  bool have_relocs = false;
  for (const Section& s : secs) {
    if (!s.data || !(s.sh.sh_flags & SHF_EXECINSTR)) continue;
    if (s.name != ".plt" && s.name != ".plt.sec" && s.name != ".plt.got" && s.name != ".iplt") continue;
    if (!have_relocs) {
      r = read_relocs(elf, secs);
      have_relocs = true;
    }
    if (eh.e_machine == EM_X86_64) scan_x86_64(s, r, &out);
    else if (eh.e_machine == EM_AARCH64) scan_aarch64(s, r, &out);
  }
  std::sort(out.begin(), out.end(), [](const PltEntry& a, const PltEntry& b) { return a.addr < b.addr; });
  return out;
}

}  // namespace erkit::symbols
