#include "dataspace/caller_locals.h"

#include <cstring>

namespace erkit::dataspace {

bool find_caller_local(const uint64_t (&regs)[format::kHwcRegCount], const std::vector<uint64_t>& stack,
                       uint64_t vaddr, const FrameCodeOf& code_of, Variable* out, DataObjectTable** types,
                       int* frame) {
  constexpr int kRsp = 7, kRip = 16;
  constexpr uint64_t kMaxStackSpan = uint64_t(1) << 30;
  if (regs[kRip] == 0 || vaddr < regs[kRsp] || vaddr - regs[kRsp] > kMaxStackSpan || stack.size() < 2) return false;
  uint64_t cur[format::kHwcRegCount];
  std::memcpy(cur, regs, sizeof cur);
  uint32_t known = StackLocals::kAllRegisters;
  // Frame k's link-time PC: the sampled PC itself, then each return address - 1 (in the call).
  uint64_t pc = regs[kRip];
  for (size_t k = 0; k + 1 < stack.size() && k < format::kMaxStackFrames; ++k) {
    const FrameCode fc = code_of(pc);
    if (!fc.locals) return false;
    const uint64_t link = pc - fc.bias - (k == 0 ? 0 : 1);
    uint64_t up[format::kHwcRegCount];
    uint32_t up_known = 0;
    if (!fc.locals->caller_registers(link, cur, known, up, &up_known)) return false;
    const uint64_t ra = stack[k + 1];
    if (ra < 4096 || !(up_known >> kRsp & 1)) return false;  // a pseudo-PC (unwind failed, truncated)
    if (up[kRsp] <= cur[kRsp] && k > 0) return false;        // the stack grows down: no progress
    // The address lies below the caller's stack pointer: it is in a frame already looked at.
    if (vaddr < up[kRsp]) return false;
    up[kRip] = ra;
    up_known |= 1u << kRip;
    std::memcpy(cur, up, sizeof cur);
    known = up_known;
    pc = ra;
    const FrameCode caller = code_of(pc);
    if (!caller.locals) return false;
    if (caller.locals->find(pc - caller.bias - 1, cur, vaddr, caller.types, out, known)) {
      if (types) *types = caller.types;
      if (frame) *frame = int(k + 1);
      return true;
    }
  }
  return false;
}

}  // namespace erkit::dataspace
