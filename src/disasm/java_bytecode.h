// Java bytecode decoding for the bytecode disassembly of Java methods (er_print -disasm in user
// and expert modes; docs/java.md). The code is a method's Code attribute as the JVM holds it
// (JVMTI GetBytecodes, recorded by the Java agent), decoded here with the JVM specification's
// instruction set (JVMS §6.5): mnemonic and operands in javap -c's spelling, constant-pool
// operands as "#index" (the constant pool is not recorded), branch targets as bytecode indices.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace erkit::disasm {

struct Bytecode {
  uint32_t bci = 0;      // bytecode index: the instruction's offset in the method's code
  uint32_t size = 0;     // bytes, opcode included
  uint8_t opcode = 0;
  std::string mnemonic;  // "invokevirtual"; "<bad>" for an undefined opcode
  std::string operands;  // "#12", "3, 1", "25" (a branch target bci), "" if none
  std::vector<uint32_t> targets;  // branch targets (bcis) within the method
};

// Decodes code[0..) up to its end; an instruction cut by the end, or an undefined opcode,
// ends the list with one "<bad>" entry covering the rest. Never reads past the code.
std::vector<Bytecode> decode_bytecodes(const std::vector<uint8_t>& code);

}  // namespace erkit::disasm
