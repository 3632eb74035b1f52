// Stack locals of the frames above the sampled one (issue 19): a program that passes a local
// array to a callee, which touches it, has its events at an address in the caller's frame.
// The record keeps the sampled context's registers and the call stack's return addresses;
// each caller's registers come from its callee's CFI without reading memory
// (StackLocals::caller_registers: the caller's rsp is the callee's CFA; registers the callee
// did not change keep their values), so each caller's CFA and DW_AT_frame_base follow from
// its own CFI, and its locals from its DWARF. A caller whose CFA needs a register a callee
// saved in memory (rbp of frame-pointer code below a frame that pushed it) is not resolved.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dataspace/dwarf_objects.h"
#include "dataspace/stack_locals.h"
#include "format/experiment_format.h"

namespace erkit::dataspace {

// The call stack's run-time PCs (the sampled PC first, then return addresses) mapped to the
// file that holds each: (link-time bias, StackLocals, its DataObjectTable); null when none.
struct FrameCode {
  uint64_t bias = 0;
  const StackLocals* locals = nullptr;
  DataObjectTable* types = nullptr;
};
using FrameCodeOf = std::function<FrameCode(uint64_t pc)>;

// The local of a caller frame (1..) that holds `vaddr`; `regs` are the sampled frame's
// (regs[16] its PC), `stack` the recorded call stack (pcs[0] the sampled PC). *frame is the
// frame number (1: the sampled function's caller). Addresses below the sampled rsp or more
// than 1 GiB above it are not looked for.
bool find_caller_local(const uint64_t (&regs)[format::kHwcRegCount], const std::vector<uint64_t>& stack,
                       uint64_t vaddr, const FrameCodeOf& code_of, Variable* out, DataObjectTable** types,
                       int* frame = nullptr);

}  // namespace erkit::dataspace
