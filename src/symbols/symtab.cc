// Function table from symbol tables. libdwfl picks the best table for us: .symtab of
// the object, else .symtab of the separate debug file, else .dynsym merged with the
// MiniDebugInfo (.gnu_debugdata) table.
#include "symbols/symtab.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "symbols/internal.h"

namespace erkit::symbols {
namespace {

// Names point into libelf's string tables, which live as long as the Dwfl.
struct RawSym {
  uint64_t addr = 0, size = 0, sec_end = 0;
  std::string_view name;
  unsigned binding = 0;
};

size_t leading_underscores(std::string_view s) {
  size_t n = 0;
  while (n < s.size() && s[n] == '_') ++n;
  return n;
}

// Which of several names at one address to show: the public name the program calls (issue
// 15: glibc's `read`, not its aliases `__libc_read`, `__read` or the local `__GI___libc_read`).
// Sized over zero-sized, exported (global or weak) over local, fewer leading underscores,
// strong over weak, longer name; then the alphabetically last (Studio's rule).
bool better(const RawSym& a, const RawSym& b) {
  if ((a.size > 0) != (b.size > 0)) return a.size > 0;
  bool al = a.binding == STB_LOCAL, bl = b.binding == STB_LOCAL;
  if (al != bl) return !al;
  // glibc's internal hidden aliases (__GI___pthread_enable_asynccancel) are never the name.
  bool agi = a.name.substr(0, 5) == "__GI_", bgi = b.name.substr(0, 5) == "__GI_";
  if (agi != bgi) return !agi;
  size_t au = leading_underscores(a.name), bu = leading_underscores(b.name);
  if (au != bu) return au < bu;
  bool aw = a.binding == STB_WEAK, bw = b.binding == STB_WEAK;
  if (aw != bw) return !aw;
  if (a.name.size() != b.name.size()) return a.name.size() > b.name.size();
  return a.name > b.name;
}

std::vector<RawSym> read_symbols(Dwfl_Module* mod) {
  std::vector<RawSym> out;
  int n = dwfl_module_getsymtab(mod);
  std::map<std::pair<Elf*, GElf_Word>, uint64_t> sec_end;
  for (int i = 1; i < n; ++i) {
    GElf_Sym sym;
    GElf_Addr addr = 0;
    GElf_Word shndx = 0;
    Elf* elf = nullptr;
    Dwarf_Addr bias = 0;
    const char* name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, &elf, &bias);
    unsigned type = GELF_ST_TYPE(sym.st_info);
    if (!name || !*name || (type != STT_FUNC && type != STT_GNU_IFUNC) || shndx == SHN_UNDEF) continue;
    RawSym r;
    r.addr = addr;
    r.size = sym.st_size;
    r.name = name;
    r.binding = GELF_ST_BIND(sym.st_info);
    auto [it, inserted] = sec_end.try_emplace({elf, shndx}, UINT64_MAX);
    if (inserted && elf && shndx != SHN_ABS) {
      GElf_Shdr sh;
      if (Elf_Scn* scn = elf_getscn(elf, shndx); scn && gelf_getshdr(scn, &sh)) {
        it->second = sh.sh_addr + sh.sh_size + bias;
      }
    }
    r.sec_end = it->second;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

const SymEntry* SymbolTable::find(uint64_t vaddr) const {
  auto it = std::upper_bound(entries.begin(), entries.end(), vaddr,
                             [](uint64_t v, const SymEntry& e) { return v < e.addr; });
  // A symbol may sit inside another (local labels typed as functions); try a few.
  for (int tries = 0; it != entries.begin() && tries < 8; ++tries) {
    --it;
    if (vaddr < it->end) return &*it;
  }
  return nullptr;
}

SymbolTable build_symbol_table(Dwfl_Module* mod, Elf* main_elf) {
  std::vector<RawSym> syms = read_symbols(mod);
  std::sort(syms.begin(), syms.end(), [](const RawSym& a, const RawSym& b) {
    return a.addr != b.addr ? a.addr < b.addr : better(a, b);
  });
  SymbolTable t;
  t.strings.emplace_back();
  t.strings.reserve(syms.size() + 1);
  // Names are mostly unique, so they are not interned.
  auto intern = [&](std::string_view s) {
    t.strings.emplace_back(s);
    return static_cast<uint32_t>(t.strings.size() - 1);
  };
  for (size_t i = 0; i < syms.size();) {
    size_t j = i;
    uint64_t size = 0;
    while (j < syms.size() && syms[j].addr == syms[i].addr) size = std::max(size, syms[j++].size);
    SymEntry e;
    e.addr = syms[i].addr;
    // Zero-sized (hand-written assembly): extend to the next symbol in the section.
    uint64_t next = j < syms.size() ? syms[j].addr : UINT64_MAX;
    e.end = size > 0 ? e.addr + size : std::min(next, syms[i].sec_end);
    if (e.end == UINT64_MAX || e.end <= e.addr) e.end = e.addr + 1;
    e.name = intern(syms[i].name);
    e.alias_begin = static_cast<uint32_t>(t.aliases.size());
    for (size_t k = i + 1; k < j; ++k) {
      // The same symbol can come from both .dynsym and MiniDebugInfo.
      bool dup = syms[k].name == syms[i].name;
      for (uint32_t a = e.alias_begin; a < t.aliases.size() && !dup; ++a) dup = t.strings[t.aliases[a]] == syms[k].name;
      if (!dup) t.aliases.push_back(intern(syms[k].name));
    }
    e.alias_end = static_cast<uint32_t>(t.aliases.size());
    t.entries.push_back(e);
    i = j;
  }
  if (main_elf) {
    std::vector<PltEntry> plt = read_plt(main_elf);
    size_t before = t.entries.size();
    for (const PltEntry& p : plt) {
      auto at = std::lower_bound(t.entries.begin(), t.entries.begin() + static_cast<ptrdiff_t>(before), p.addr,
                                 [](const SymEntry& e, uint64_t a) { return e.addr < a; });
      if (at != t.entries.begin() + static_cast<ptrdiff_t>(before) && at->addr == p.addr) continue;
      SymEntry e;
      e.addr = p.addr;
      e.end = p.addr + p.size;
      e.name = intern(p.symbol);
      e.plt = true;
      e.alias_begin = e.alias_end = static_cast<uint32_t>(t.aliases.size());
      t.entries.push_back(e);
    }
    if (t.entries.size() != before) {
      std::sort(t.entries.begin(), t.entries.end(), [](const SymEntry& a, const SymEntry& b) { return a.addr < b.addr; });
    }
  }
  return t;
}

}  // namespace erkit::symbols
