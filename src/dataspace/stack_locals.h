// Stack locals as data objects (seed-spec §2.7: "stack EAs -> frame locals"): with the
// registers of the interrupted context at a PC (kept in the hwc_event record), the frame base
// of the function at that PC is computed from its DWARF (DW_AT_frame_base, usually the CFA from
// .eh_frame), and each local variable and parameter live at the PC whose location is in memory
// (DW_OP_fbreg, DW_OP_bregN, location lists) is a data object at that address. The callers'
// frames (issue 19) are reached by caller_registers(): their CFAs from the CFI alone
// (dataspace/caller_locals.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "dataspace/dwarf_objects.h"
#include "format/experiment_format.h"

namespace erkit::dataspace {

class StackLocals {
 public:
  // nullptr when the file cannot be read or has no DWARF.
  static std::unique_ptr<StackLocals> open(const std::string& path);
  ~StackLocals();
  StackLocals(const StackLocals&) = delete;
  StackLocals& operator=(const StackLocals&) = delete;

  // The local of the function at link-time `link_pc` whose storage holds run-time `vaddr`,
  // given the run-time registers at that PC (the record's order: rax rbx rcx rdx rsi rdi rbp
  // rsp r8..r15 rip). out->addr is the local's run-time address. Aggregate types met are added
  // to `types` (the table of the same file) for data_layout.
  // `known`: a mask of the registers that hold values (bit i: regs[i]); a location that needs
  // another register is skipped (a caller's frame, where the call clobbered some: issue 19).
  bool find(uint64_t link_pc, const uint64_t (&regs)[format::kHwcRegCount], uint64_t vaddr, DataObjectTable* types,
            Variable* out, uint32_t known = kAllRegisters) const;

  // One step up the stack without reading memory (issue 19): the caller's registers from the
  // frame's at link-time `link_pc`, by its CFI. The caller's rsp is the frame's CFA; registers
  // the frame did not change (same_value: rbx, rbp, r12-r15 unless saved) keep their values;
  // registers the call clobbered or the frame saved in memory become unknown. rip is left to
  // the caller (the return address from the recorded call stack). False without CFI at the PC
  // or when the CFA needs an unknown register.
  bool caller_registers(uint64_t link_pc, const uint64_t (&regs)[format::kHwcRegCount], uint32_t known,
                        uint64_t (&caller)[format::kHwcRegCount], uint32_t* caller_known) const;

  static constexpr uint32_t kAllRegisters = (1u << format::kHwcRegCount) - 1;

 private:
  StackLocals() = default;
  struct Handle;
  std::unique_ptr<Handle> h_;
};

}  // namespace erkit::dataspace
