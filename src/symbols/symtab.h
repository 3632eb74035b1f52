// Sorted function table from the ELF symbol tables (.symtab of the object or of its
// separate debug file, else .dynsym plus MiniDebugInfo) and the PLT.
#pragma once

#include <elfutils/libdwfl.h>

#include <cstdint>
#include <string>
#include <vector>

namespace erkit::symbols {

struct SymEntry {
  uint64_t addr = 0, end = 0;  // [addr, end), ELF virtual addresses
  uint32_t name = 0;           // into SymbolTable::strings: raw canonical name
  uint32_t alias_begin = 0, alias_end = 0;  // into SymbolTable::aliases
  bool plt = false;            // name is the called symbol; display adds "@plt"
};

struct SymbolTable {
  std::vector<SymEntry> entries;  // sorted by addr, one per address
  std::vector<std::string> strings;
  std::vector<uint32_t> aliases;  // string ids

  // Innermost entry containing vaddr, or null.
  const SymEntry* find(uint64_t vaddr) const;
};

// `main_elf`: the object itself (for the PLT; the debug file has no PLT contents).
SymbolTable build_symbol_table(Dwfl_Module* mod, Elf* main_elf);

}  // namespace erkit::symbols
