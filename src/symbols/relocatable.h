// Relocatable objects (`.o`, ET_REL; issue 15 item 8). In the file every section of a `.o`
// starts at address 0 and its DWARF holds 0 where an address or a string offset belongs: the
// values are in the relocations' addends (x86-64 RELA). erkit reads a `.o` in ONE address
// layout, libdwfl's: `report_at_file_addresses` (used by ObjectSymbols too) places the
// allocated sections one after another from kRelocatableBase, in section order, each at its
// alignment, and
// `dwfl_module_getdwarf` applies the DWARF's relocations for that layout. The code reader
// (disasm::ObjectCode) and the line reader (disasm::LineTable) take the section addresses and
// the relocated DWARF from here, so symbols, lines and instructions agree.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct Dwarf;  // libdw

namespace erkit::symbols {

// Where a .o's first section is placed. Views show a .o's addresses as offsets in their
// section (what nm and objdump show), so the base is never seen.
constexpr uint64_t kRelocatableBase = 0x10000;

// A relocation in an executable section: where it applies and what it refers to.
struct PlacedReloc {
  uint64_t at = 0;        // address of the relocated field, in the layout
  uint32_t type = 0;      // R_X86_64_PLT32, R_AARCH64_CALL26, ...
  std::string symbol;     // the symbol's name ("" for a section symbol)
  bool defined = false;   // the symbol is in this object: `value` is its address
  uint64_t value = 0;     // S: the symbol's address in the layout (defined only)
  int64_t addend = 0;     // A
};

struct PlacedSection {
  uint32_t index = 0;  // ELF section index
  std::string name;
  uint64_t addr = 0, size = 0;  // addr: libdwfl's layout
  bool executable = false;
  std::vector<PlacedReloc> relocs;  // executable sections: their relocations, by address
};

// True when `path` is an ELF relocatable object (ET_REL). False for anything else, unreadable
// files included.
bool is_relocatable(const std::string& path);

class RelocatableObject {
 public:
  // Null with *error set when the file cannot be read or is not ET_REL.
  static std::unique_ptr<RelocatableObject> open(const std::string& path, std::string* error);
  ~RelocatableObject();
  RelocatableObject(const RelocatableObject&) = delete;
  RelocatableObject& operator=(const RelocatableObject&) = delete;

  // Allocated sections (non-empty), sorted by address.
  const std::vector<PlacedSection>& sections() const { return sections_; }
  // The section containing addr, or null.
  const PlacedSection* section_at(uint64_t addr) const;
  // The object's DWARF with its relocations applied for this layout; null without DWARF.
  // Valid as long as this object.
  Dwarf* dwarf() const;
  uint16_t machine() const { return machine_; }

 private:
  RelocatableObject() = default;
  struct Session;
  std::unique_ptr<Session> session_;
  std::vector<PlacedSection> sections_;
  uint16_t machine_ = 0;
};

}  // namespace erkit::symbols
