// The effective data address of a sampled instruction where the kernel gave none: decode the
// instruction at the sample's PC (capstone, x86-64) and compute its memory operand from the
// interrupted context's registers (HwcEventRecord::regs). Each address is precise (kernel),
// decoded, or unknown with the manual's <Unknown> subtype saying why (seed-spec §6.14).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "format/experiment_format.h"

namespace erkit::dataspace {

enum class AddrStatus {
  kPrecise,        // from the kernel (PERF_SAMPLE_ADDR: page faults, PEBS, IBS, SPE)
  kDecoded,        // computed from the decoded instruction and the context's registers
  kNoCode,         // the code at the PC could not be read (<Unknown>: no type information)
  kNotMemory,      // the instruction at the PC references no memory
  kSkid,           // a register of the address changed after the trigger (PC != context PC)
  kNoContext,      // neither an address nor registers were recorded
  kRipRelativeOk,  // (internal) never reported
  kInvalid,        // the computed address is not a valid virtual address
  kBlocked,        // backtracking met a jump or call before a memory instruction
};

// The manual's <Unknown> subtype name for a status ("" for precise and decoded).
std::string unknown_subtype(AddrStatus s);

struct Decoded {
  AddrStatus status = AddrStatus::kNoContext;
  uint64_t vaddr = 0;
  bool is_store = false;  // the operand is written
};

// Decodes the x86-64 instruction in `code` (n bytes, at address pc) and computes the address of
// its memory operand from regs (format::kHwcRegCount values: rax rbx rcx rdx rsi rdi rbp rsp
// r8..r15 rip). `context_pc` is regs' rip; a sample PC other than it means skid.
Decoded decode_x86_64(const uint8_t* code, size_t n, uint64_t pc, const uint64_t* regs);

// With backtracking: `code` holds the bytes of [code_addr, code_addr + n), which contains pc.
// When the instruction at pc references no memory, walks back through the straight-line code
// before it to the nearest memory instruction whose address registers were not written since
// (the manual's backtracking): kBlocked at a jump or call, kSkid if a register changed.
Decoded decode_x86_64_backtrack(const uint8_t* code, size_t n, uint64_t code_addr, uint64_t pc, const uint64_t* regs);

}  // namespace erkit::dataspace
