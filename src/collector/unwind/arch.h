// Per-architecture facts the unwinder needs: DWARF register numbering, the registers a cached
// row tracks, the kernel's signal-frame layout and the sigreturn trampoline's machine code.
// Offsets into ucontext_t are spelled out (they are kernel ABI) so that this header does not
// depend on the C library's headers.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace erkit::unwind::internal {

#if defined(__x86_64__)
// DWARF numbering (System V AMD64 psABI): rax rdx rcx rbx rsi rdi rbp rsp r8..r15, 16 = RA.
inline constexpr int kNumRegs = 17;
inline constexpr int kSpReg = 7;
inline constexpr int kFpReg = 6;
inline constexpr int kRaColumn = 16;
// Callee-saved registers plus the RA column: the only rules a cached row stores.
inline constexpr uint8_t kTrackedRegs[] = {3, 6, 12, 13, 14, 15, 16};
// ucontext_t: uc_flags(8) uc_link(8) uc_stack(24), then mcontext gregs[23]:
// r8..r15 rdi rsi rbp rbx rdx rax rcx rsp rip ...
inline constexpr size_t kUcGregsOffset = 40;
inline constexpr int kUcNumGregs = 17;
inline constexpr int kUcPcIndex = 16;
// gregs index of each DWARF register 0..16 (16 = rip).
inline constexpr uint8_t kGregOfDwarf[kNumRegs] = {13, 12, 14, 11, 9, 8, 10, 15,
                                                   0,  1,  2,  3,  4, 5, 6,  7, 16};
// glibc's __restore_rt: mov $15,%rax; syscall. The handler returns into it with rsp pointing
// at the kernel's ucontext (struct rt_sigframe minus the return-address slot).
inline constexpr uint8_t kSigreturnCode[] = {0x48, 0xc7, 0xc0, 0x0f, 0x00, 0x00, 0x00, 0x0f, 0x05};
inline constexpr size_t kSigframeUcOffset = 0;
#elif defined(__aarch64__)
// DWARF numbering (AAPCS64): x0..x30, 31 = sp. The RA column is x30 (lr), a real register.
inline constexpr int kNumRegs = 32;
inline constexpr int kSpReg = 31;
inline constexpr int kFpReg = 29;
inline constexpr int kRaColumn = 30;
inline constexpr uint8_t kTrackedRegs[] = {19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30};
// ucontext_t: uc_flags(8) uc_link(8) uc_stack(24) uc_sigmask(8) pad(120), then the 16-aligned
// mcontext: fault_address(8) regs[31] sp pc pstate.
inline constexpr size_t kUcGregsOffset = 176 + 8;
inline constexpr int kUcNumGregs = 33;  // x0..x30, sp, pc
inline constexpr uint8_t kGregOfDwarf[kNumRegs] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                                   11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                                   22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
inline constexpr int kUcPcIndex = 32;
// The vDSO's __kernel_rt_sigreturn: mov x8, #139; svc #0. Entered with sp at struct
// rt_sigframe { siginfo_t info (128 bytes); ucontext_t uc; }.
inline constexpr uint8_t kSigreturnCode[] = {0x68, 0x11, 0x80, 0xd2, 0x01, 0x00, 0x00, 0xd4};
inline constexpr size_t kSigframeUcOffset = 128;
#else
#error "erkit unwinder: unsupported architecture (x86-64 and aarch64 only)"
#endif

inline constexpr int kNumTracked = int(sizeof(kTrackedRegs));

// Register file of one frame: DWARF registers, which of them hold known values, and the PC.
struct Regs {
  uint64_t r[kNumRegs];
  uint64_t valid;  // bit i: r[i] is known
  uint64_t pc;
};
static_assert(kNumRegs <= 64);

// Fills `regs` with the calling function's callee-saved registers, its stack pointer after
// the call returns, and the return address as pc: the state of the caller right after the
// call instruction. Written in assembly (capture.cc) so that nothing is clobbered first.
extern "C" void erkit_unwind_capture(Regs* regs);

// Strips pointer-authentication bits from a signed return address (aarch64); identity elsewhere.
inline uint64_t strip_pac(uint64_t ra) {
#if defined(__aarch64__)
  register uint64_t x30 asm("x30") = ra;
  asm("hint #7" : "+r"(x30));  // xpaclri: a NOP on CPUs without pointer authentication
  return x30;
#else
  return ra;
#endif
}

}  // namespace erkit::unwind::internal
