// Instruction decoding with capstone for x86-64 (AT&T or Intel syntax) and aarch64.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "disasm/object_code.h"

namespace erkit::disasm {

enum class Flow : uint8_t { None, Call, Jump, CondJump, Return };

struct Instruction {
  uint64_t addr = 0;
  uint8_t size = 0;
  uint8_t bytes[16] = {};
  std::string mnemonic, operands;
  Flow flow = Flow::None;
  bool has_target = false;  // direct branch or call: `target` is its destination
  uint64_t target = 0;
};

enum class Syntax { Att, Intel };

class Disassembler {
 public:
  // Null with *error set when the architecture is not supported.
  static std::unique_ptr<Disassembler> create(Arch arch, Syntax syntax, std::string* error);
  ~Disassembler();
  Disassembler(const Disassembler&) = delete;
  Disassembler& operator=(const Disassembler&) = delete;

  // Decodes code[0..n) starting at address `addr`. Undecodable bytes become `.byte`
  // pseudo-instructions (1 byte on x86, 4 on aarch64) so decoding always reaches the end.
  std::vector<Instruction> decode(const uint8_t* code, size_t n, uint64_t addr) const;
  Arch arch() const { return arch_; }

 private:
  Disassembler() = default;
  Arch arch_ = Arch::Unknown;
  size_t handle_ = 0;
};

}  // namespace erkit::disasm
