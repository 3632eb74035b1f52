// Stack locals as data objects (seed-spec §2.7: "stack EAs -> frame locals"): with the
// registers of the interrupted context at a PC (kept in the hwc_event record), the frame base
// of the function at that PC is computed from its DWARF (DW_AT_frame_base, usually the CFA from
// .eh_frame), and each local variable and parameter live at the PC whose location is in memory
// (DW_OP_fbreg, DW_OP_bregN, location lists) is a data object at that address. Only the frame
// the registers belong to (the sampled function's own locals): the callers' frames would need
// the unwound registers, which the record does not keep.
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
  bool find(uint64_t link_pc, const uint64_t (&regs)[format::kHwcRegCount], uint64_t vaddr, DataObjectTable* types,
            Variable* out) const;

 private:
  StackLocals() = default;
  struct Handle;
  std::unique_ptr<Handle> h_;
};

}  // namespace erkit::dataspace
