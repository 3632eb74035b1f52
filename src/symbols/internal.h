// Declarations shared between the files of src/symbols; not part of the public API.
#pragma once

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include <cstdint>
#include <string>
#include <vector>

#include "symbols/symbols.h"

namespace erkit::symbols {

// demangle.cc
std::string strip_parameters(const std::string& demangled);

// elf_file.cc
std::string build_id_of(Elf* elf);  // lowercase hex or ""
std::vector<SectionInfo> alloc_sections(Elf* elf);  // sorted by address

// relocatable.cc: the one way erkit reports an object to libdwfl (ObjectSymbols,
// RelocatableObject): at base 0, so addresses are the file's own; a .o in libdwfl's layout.
Dwfl_Module* report_at_file_addresses(Dwfl* dwfl, const std::string& path);

// plt.cc: one synthesised function per PLT slot whose target symbol is known.
struct PltEntry {
  uint64_t addr = 0, size = 0;
  std::string symbol;  // raw name of the called function (without "@plt")
};
std::vector<PltEntry> read_plt(Elf* elf);

}  // namespace erkit::symbols
