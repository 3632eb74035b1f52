// The machine code of one ELF object: its architecture and the bytes of its executable
// sections, addressed by ELF virtual address. Used to disassemble functions.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace erkit::disasm {

enum class Arch { Unknown, X86_64, AArch64 };
const char* arch_name(Arch a);

struct CodeSection {
  std::string name;
  uint64_t addr = 0;
  std::vector<uint8_t> bytes;
};

class ObjectCode {
 public:
  // Null with *error set when the file is unreadable or not ELF.
  static std::unique_ptr<ObjectCode> open(const std::string& path, std::string* error);

  Arch arch() const { return arch_; }
  bool relocatable() const { return relocatable_; }  // a .o: every section starts at 0
  const std::string& path() const { return path_; }
  const std::vector<CodeSection>& sections() const { return sections_; }
  // The bytes of [lo, hi) clipped to the executable section containing lo; empty if none.
  // For relocatable objects `.text` is preferred where sections overlap.
  std::vector<uint8_t> bytes(uint64_t lo, uint64_t hi) const;
  const CodeSection* section_at(uint64_t addr) const;

 private:
  std::string path_;
  Arch arch_ = Arch::Unknown;
  bool relocatable_ = false;
  std::vector<CodeSection> sections_;
};

}  // namespace erkit::disasm
