// erkit_unwind_capture(Regs*): snapshot of the caller's callee-saved registers, stack pointer
// and return address. In assembly because C++ cannot read these registers without the
// compiler having already changed some of them.
#include <stddef.h>

#include "collector/unwind/arch.h"

namespace erkit::unwind::internal {

#if defined(__x86_64__)
static_assert(offsetof(Regs, r) == 0 && offsetof(Regs, valid) == 136 && offsetof(Regs, pc) == 144);
// valid: rbx(3) rbp(6) rsp(7) r12..r15 RA(16)
asm(R"(
  .text
  .p2align 4
  .globl erkit_unwind_capture
  .hidden erkit_unwind_capture
  .type erkit_unwind_capture,@function
erkit_unwind_capture:
  .cfi_startproc
  movq %rbx, 24(%rdi)
  movq %rbp, 48(%rdi)
  movq %r12, 96(%rdi)
  movq %r13, 104(%rdi)
  movq %r14, 112(%rdi)
  movq %r15, 120(%rdi)
  leaq 8(%rsp), %rax
  movq %rax, 56(%rdi)
  movq (%rsp), %rax
  movq %rax, 128(%rdi)
  movq %rax, 144(%rdi)
  movq $0x1f0c8, 136(%rdi)
  ret
  .cfi_endproc
  .size erkit_unwind_capture, .-erkit_unwind_capture
)");
#elif defined(__aarch64__)
static_assert(offsetof(Regs, r) == 0 && offsetof(Regs, valid) == 256 && offsetof(Regs, pc) == 264);
// valid: x19..x30 and sp (bits 19..31)
asm(R"(
  .text
  .p2align 4
  .globl erkit_unwind_capture
  .hidden erkit_unwind_capture
  .type erkit_unwind_capture,%function
erkit_unwind_capture:
  .cfi_startproc
  stp x19, x20, [x0, #152]
  stp x21, x22, [x0, #168]
  stp x23, x24, [x0, #184]
  stp x25, x26, [x0, #200]
  stp x27, x28, [x0, #216]
  stp x29, x30, [x0, #232]
  mov x1, sp
  str x1, [x0, #248]
  str x30, [x0, #264]
  movz x1, #0xfff8, lsl #16
  str x1, [x0, #256]
  ret
  .cfi_endproc
  .size erkit_unwind_capture, .-erkit_unwind_capture
)");
#endif

}  // namespace erkit::unwind::internal
