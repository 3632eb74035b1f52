// The machine code of one ELF object: its architecture and the bytes of its executable
// sections, addressed by ELF virtual address. Used to disassemble functions.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "symbols/relocatable.h"

namespace erkit::disasm {

enum class Arch { Unknown, X86_64, AArch64 };
const char* arch_name(Arch a);

struct CodeSection {
  std::string name;
  uint64_t addr = 0;
  std::vector<uint8_t> bytes;
  // A relocatable object's: the relocations in this section (calls to other functions).
  std::vector<symbols::PlacedReloc> relocs;
};

class ObjectCode {
 public:
  // Null with *error set when the file is unreadable or not ELF.
  static std::unique_ptr<ObjectCode> open(const std::string& path, std::string* error);

  Arch arch() const { return arch_; }
  // A .o: its sections are at libdwfl's layout (symbols/relocatable.h), as symbols and lines.
  bool relocatable() const { return relocatable_; }
  const std::string& path() const { return path_; }
  const std::vector<CodeSection>& sections() const { return sections_; }
  // The bytes of [lo, hi) clipped to the executable section containing lo; empty if none.
  std::vector<uint8_t> bytes(uint64_t lo, uint64_t hi) const;
  const CodeSection* section_at(uint64_t addr) const;

 private:
  std::string path_;
  Arch arch_ = Arch::Unknown;
  bool relocatable_ = false;
  std::vector<CodeSection> sections_;
};

}  // namespace erkit::disasm
