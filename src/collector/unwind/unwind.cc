// The frame walk: one step per frame, first through the row cache, then (on a miss) through
// the registry and the CFI interpreter, with the kernel signal frame and a frame-pointer rule
// as special cases. Runs in signal handlers: no allocation, no locks, only raw syscalls (so
// errno is untouched), and every memory read is checked first.
#include "collector/unwind/unwind.h"

#include "collector/unwind/internal.h"

namespace erkit::unwind::internal {
namespace {

#if defined(__x86_64__)
inline constexpr long kSysRtSigprocmask = 14;
inline long raw_syscall4(long nr, long a1, long a2, long a3, long a4) {
  long ret;
  register long r10 asm("r10") = a4;
  asm volatile("syscall"
               : "=a"(ret)
               : "0"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10)
               : "rcx", "r11", "memory");
  return ret;
}
inline constexpr uintptr_t kUserTop = uintptr_t(1) << 47;
#elif defined(__aarch64__)
inline constexpr long kSysRtSigprocmask = 135;
inline long raw_syscall4(long nr, long a1, long a2, long a3, long a4) {
  register long x8 asm("x8") = nr;
  register long x0 asm("x0") = a1;
  register long x1 asm("x1") = a2;
  register long x2 asm("x2") = a3;
  register long x3 asm("x3") = a4;
  asm volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
  return x0;
}
inline constexpr uintptr_t kUserTop = uintptr_t(1) << 52;
#endif

inline constexpr uintptr_t kPage = 4096;

// rt_sigprocmask copies the new set from user memory before it validates `how`, so an invalid
// `how` turns it into a pure readability test: -EFAULT if unreadable, -EINVAL otherwise.
bool page_readable(uintptr_t page) {
  return raw_syscall4(kSysRtSigprocmask, -1, long(page), 0, 8) != -14 /* EFAULT */;
}

enum Step { kStepOk, kStepEnd, kStepFail };

inline constexpr int kMaxFpRun = 4;  // consecutive frames walked by the frame-pointer rule

struct Walker {
  Mem mem;
  uint64_t epoch;
  Regs regs;
  bool pc_exact;     // regs.pc is an exact PC (leaf or after a signal frame), not a return address
  bool same_sp;      // the previous step did not move the stack pointer (aarch64 leaf frames)
  int fp_run;
  Object obj;        // last object copied out of the registry
  bool have_obj;

  bool valid(int r) const { return regs.valid & (uint64_t(1) << r); }

  bool object_for(uintptr_t pc) {
    if (have_obj && pc >= obj.lo && pc < obj.hi) return true;
    have_obj = find_object(pc, &obj);
    return have_obj;
  }

  // Common tail of every step: checks progress and installs the caller's registers.
  Step finish(Regs& n, uint64_t ra, bool exact, bool signal_return) {
    if (ra == 0) return kStepEnd;  // a zeroed return address marks the outermost frame
    const uint64_t old_sp = regs.r[kSpReg], new_sp = n.r[kSpReg];
    if (!signal_return) {
      if (!(n.valid & (uint64_t(1) << kSpReg)) || new_sp < old_sp) return kStepFail;
      if (new_sp == old_sp) {
        if (same_sp) return kStepFail;  // two frames without stack: a loop
        same_sp = true;
      } else {
        same_sp = false;
      }
    } else {
      same_sp = false;
    }
    n.pc = ra;
#if defined(__x86_64__)
    n.r[kRaColumn] = ra;
    n.valid |= uint64_t(1) << kRaColumn;
#endif
    regs = n;
    pc_exact = exact;
    return kStepOk;
  }

  // The hot path: updates the registers in place (copying the register file costs more than
  // the rest of the step).
  Step apply_compact(const CompactRow& cr) {
    if (!valid(cr.cfa_reg)) return kStepFail;
    const uint64_t cfa = regs.r[cr.cfa_reg] + int64_t(cr.cfa_off);
    uint64_t vals[kNumTracked];
    uint64_t set = 0, clear = 0;
    for (int i = 0; i < kNumTracked; ++i) {
      const int16_t s = cr.slot[i];
      if (s == kSlotSame) continue;
      const uint64_t bit = uint64_t(1) << kTrackedRegs[i];
      if (s == kSlotUndefined) {
        if (kTrackedRegs[i] == kRaColumn) return kStepEnd;  // outermost frame (_start, clone3)
        clear |= bit;
        continue;
      }
      if (!mem.read(uintptr_t(cfa + int64_t(s)), &vals[i])) return kStepFail;
      set |= bit;
    }
    const uint64_t old_sp = regs.r[kSpReg];
    for (int i = 0; i < kNumTracked; ++i)
      if (set & (uint64_t(1) << kTrackedRegs[i])) regs.r[kTrackedRegs[i]] = vals[i];
    regs.valid = ((regs.valid | set) & ~clear) | (uint64_t(1) << kSpReg);
    regs.r[kSpReg] = cfa;
    if (!valid(kRaColumn)) return kStepFail;
    uint64_t ra = regs.r[kRaColumn];
    if (cr.ra_signed) ra = strip_pac(ra);
    fp_run = 0;
    if (ra == 0) return kStepEnd;
    if (cfa < old_sp) return kStepFail;
    if (cfa == old_sp) {
      if (same_sp) return kStepFail;  // two frames without stack: a loop
      same_sp = true;
    } else {
      same_sp = false;
    }
    regs.pc = ra;
    pc_exact = cr.signal_frame;
    return kStepOk;
  }

  Step apply_row(const Row& row) {
    uint64_t cfa;
    if (row.cfa_kind == kCfaRegOffset) {
      if (row.cfa_reg >= kNumRegs || !valid(row.cfa_reg)) return kStepFail;
      cfa = regs.r[row.cfa_reg] + uint64_t(row.cfa_off);
    } else if (!eval_expr(obj, obj.lo + uintptr_t(row.cfa_off), row.cfa_expr_len, regs, mem,
                          false, 0, &cfa)) {
      return kStepFail;
    }
    if (row.rules[row.ra_reg].kind == kRuleUndefined) return kStepEnd;
    Regs n = regs;
    for (int r = 0; r < kNumRegs; ++r) {
      const Rule& rule = row.rules[r];
      const uint64_t bit = uint64_t(1) << r;
      uint64_t v = 0;
      switch (rule.kind) {
        case kRuleSame: continue;
        case kRuleUndefined: n.valid &= ~bit; continue;
        case kRuleOffset:
          if (!mem.read(uintptr_t(cfa + int64_t(rule.val)), &v)) return kStepFail;
          break;
        case kRuleValOffset: v = cfa + int64_t(rule.val); break;
        case kRuleRegister:
          if (rule.val < 0 || rule.val >= kNumRegs || !valid(rule.val)) return kStepFail;
          v = regs.r[rule.val];
          break;
        case kRuleExpr:
        case kRuleValExpr: {
          const uintptr_t e = obj.lo + uintptr_t(uint32_t(rule.val));
          if (!eval_expr(obj, e, rule.len, regs, mem, true, cfa, &v)) return kStepFail;
          if (rule.kind == kRuleExpr && !mem.read(uintptr_t(v), &v)) return kStepFail;
          break;
        }
        default: return kStepFail;
      }
      n.r[r] = v;
      n.valid |= bit;
    }
    if (row.rules[kSpReg].kind == kRuleSame) {
      n.r[kSpReg] = cfa;
      n.valid |= uint64_t(1) << kSpReg;
    }
    if (!(n.valid & (uint64_t(1) << row.ra_reg))) return kStepFail;
    uint64_t ra = n.r[row.ra_reg];
    if (row.ra_signed) ra = strip_pac(ra);
    fp_run = 0;
    // A frame whose CFI restores the stack pointer explicitly is a signal frame in disguise.
    return finish(n, ra, row.signal_frame, row.rules[kSpReg].kind != kRuleSame);
  }

  // The handler returned into the sigreturn trampoline: the interrupted registers are in the
  // ucontext the kernel pushed, right at the stack pointer.
  Step sigreturn() {
    if (!valid(kSpReg)) return kStepFail;
    const uintptr_t gregs = uintptr_t(regs.r[kSpReg]) + kSigframeUcOffset + kUcGregsOffset;
    if (!mem.ok(gregs, kUcNumGregs * 8)) return kStepFail;
    uint64_t g[kUcNumGregs];
    __builtin_memcpy(g, reinterpret_cast<const void*>(gregs), sizeof(g));
    Regs n;
    for (int r = 0; r < kNumRegs; ++r) n.r[r] = g[kGregOfDwarf[r]];
    n.valid = (uint64_t(1) << kNumRegs) - 1;
    fp_run = 0;
    return finish(n, g[kUcPcIndex], true, true);
  }

  bool is_sigreturn(uintptr_t pc) {
    if (!obj.executable(pc) || !obj.readable(pc, sizeof(kSigreturnCode))) return false;
    return __builtin_memcmp(reinterpret_cast<const void*>(pc), kSigreturnCode,
                            sizeof(kSigreturnCode)) == 0;
  }

#if defined(__x86_64__)
  // Whether `ra` is in registered code and the bytes before it are a call: e8 rel32, or
  // ff /2 (indirect: by register, [reg], [reg+disp8], [reg+disp32] or [rip+disp32]).
  bool follows_call(uintptr_t ra) {
    Object o;
    if (!find_object(ra, &o) || !o.executable(ra) || ra < 7 || !o.readable(ra - 7, 7)) return false;
    const uint8_t* b = reinterpret_cast<const uint8_t*>(ra - 7);  // b[6] is the byte before ra
    auto ff2 = [](uint8_t op, uint8_t modrm) { return op == 0xff && ((modrm >> 3) & 7) == 2; };
    if (b[2] == 0xe8) return true;
    if (ff2(b[5], b[6]) && ((b[6] >> 6) == 3 || ((b[6] >> 6) == 0 && (b[6] & 7) != 4 && (b[6] & 7) != 5)))
      return true;  // call *%reg, call *(%reg)
    if (ff2(b[4], b[5]) && ((b[5] >> 6) == 1 || ((b[5] >> 6) == 0 && (b[5] & 7) == 4))) return true;
    if (ff2(b[1], b[2]) && ((b[2] >> 6) == 2 || (b[2] & 0xc7) == 0x05)) return true;  // disp32, rip
    return false;
  }
#endif

  // No CFI: treat the frame as a classic frame-pointer frame ([fp] = caller's fp, [fp+8] =
  // return address), accepted only if it leads up the stack into registered code.
  Step frame_pointer() {
#if defined(__aarch64__)
    // An interrupted frame without CFI (a PLT stub, mostly: GNU ld emits no CFI for .plt) has
    // not saved its return address yet if it is a leaf: it is still in x30. Taken once, for the
    // interrupted frame only (x30 is a live register there), if it points into registered code.
    if (pc_exact && fp_run == 0 && valid(kRaColumn)) {
      const uint64_t lr = strip_pac(regs.r[kRaColumn]);
      if (lr != regs.pc && is_code(uintptr_t(lr))) {
        Regs n = regs;
        n.valid &= ~(uint64_t(1) << kRaColumn);
        ++fp_run;
        return finish(n, lr, false, false);
      }
    }
#endif
#if defined(__x86_64__)
    // An interrupted leaf without CFI (JIT code, code copied to fresh memory) that has pushed
    // nothing yet: its return address is the word at the stack pointer. Taken for the
    // interrupted frame only, when that word is a code address right after a call instruction
    // (a frame-pointer walk from there would skip the caller, or fail where the caller uses
    // rbp as an ordinary register).
    if (pc_exact && fp_run == 0 && valid(kSpReg)) {
      uint64_t ra;
      if (mem.read(uintptr_t(regs.r[kSpReg]), &ra) && follows_call(uintptr_t(ra))) {
        Regs n = regs;
        n.r[kSpReg] += 8;
        ++fp_run;
        return finish(n, ra, false, false);
      }
    }
#endif
    if (fp_run >= kMaxFpRun || !valid(kFpReg) || !valid(kSpReg)) return kStepFail;
    const uint64_t fp = regs.r[kFpReg];
    if (fp < regs.r[kSpReg] || (fp & 7u)) return kStepFail;
    uint64_t saved_fp, ra;
    if (!mem.read(uintptr_t(fp), &saved_fp) || !mem.read(uintptr_t(fp + 8), &ra)) return kStepFail;
    if (!is_code(uintptr_t(ra))) return kStepFail;
    Regs n = regs;
    n.r[kFpReg] = saved_fp;
    n.r[kSpReg] = fp + 16;
#if defined(__aarch64__)
    n.r[kRaColumn] = ra;
#endif
    ++fp_run;
    return finish(n, strip_pac(ra), false, false);
  }

  Step step() {
    const uintptr_t pc = uintptr_t(regs.pc);
    if (pc < kPage || pc >= kUserTop) return kStepFail;
    const uintptr_t lookup = pc_exact ? pc : pc - 1;
    CompactWords cw;
    if (cache_get(lookup, epoch, &cw)) {
      if (cw.row.kind == kCacheRow) return apply_compact(cw.row);
      if (cw.row.kind == kCacheSigreturn) return sigreturn();
      return frame_pointer();
    }
    if (!object_for(lookup)) return frame_pointer();  // JIT code, or not yet refreshed
    CompactRow cr{};
    if (is_sigreturn(pc)) {
      cr.kind = kCacheSigreturn;
      cache_put(lookup, epoch, cr);
      return sigreturn();
    }
    Row row;
    if (!compute_row(obj, lookup, &row)) {
      cr.kind = kCacheFramePointer;
      cache_put(lookup, epoch, cr);
      return frame_pointer();
    }
    if (compact_row(row, &cr)) {
      cache_put(lookup, epoch, cr);
      return apply_compact(cr);
    }
    return apply_row(row);
  }
};

int walk(Walker& w, int skip, uint64_t* pcs, int max_frames, UnwindStatus* status) {
  UnwindStatus st{false, false};
  int n = 0;
  if (max_frames > 0 && pcs) {
    for (;;) {
      if (skip > 0) {
        --skip;
      } else if (n == max_frames) {
        st.truncated = w.step() != kStepEnd;
        break;
      } else {
        pcs[n++] = w.regs.pc;
      }
      const Step r = w.step();
      if (r == kStepEnd) break;
      if (r == kStepFail) {
        st.failed = true;
        break;
      }
    }
  }
  if (status) *status = st;
  return n;
}

void init_walker(Walker& w, StackBounds b) {
  w.mem.init(b.lo, b.hi, uintptr_t(w.regs.r[kSpReg]));
  w.epoch = cache_epoch();
  w.same_sp = false;
  w.fp_run = 0;
  w.have_obj = false;
}

}  // namespace

void Mem::init(uintptr_t b_lo, uintptr_t b_hi, uintptr_t sp) {
  npages = 0;
  if (b_hi <= b_lo) b_lo = b_hi = 0;
  lo = b_lo;
  hi = b_hi;
  probe = hi == 0 || sp < lo || sp >= hi;
}

bool Mem::ok_slow(uintptr_t addr, size_t n) {
  if (n == 0) return true;
  if (!probe || addr < kPage || addr >= kUserTop || n > kUserTop - addr) return false;
  for (uintptr_t page = addr & ~(kPage - 1); page < addr + n; page += kPage) {
    bool known = false;
    const uint32_t k = npages < 8 ? npages : 8;
    for (uint32_t i = 0; i < k && !known; ++i) known = pages[i] == page;
    if (known) continue;
    if (!page_readable(page)) return false;
    pages[npages++ % 8] = page;
  }
  return true;
}

}  // namespace erkit::unwind::internal

namespace erkit::unwind {
using namespace internal;

int unwind_from_ucontext(const void* ucontext, StackBounds b, uint64_t* pcs, int max_frames,
                         UnwindStatus* status) {
  Walker w;
  if (!ucontext) {
    if (status) *status = UnwindStatus{false, true};
    return 0;
  }
  // The handler's own argument: kernel-written, always readable.
  uint64_t g[kUcNumGregs];
  __builtin_memcpy(g, static_cast<const uint8_t*>(ucontext) + kUcGregsOffset, sizeof(g));
  for (int r = 0; r < kNumRegs; ++r) w.regs.r[r] = g[kGregOfDwarf[r]];
  w.regs.valid = (uint64_t(1) << kNumRegs) - 1;
  w.regs.pc = g[kUcPcIndex];
  w.pc_exact = true;
  init_walker(w, b);
  return walk(w, 0, pcs, max_frames, status);
}

bool interrupted_in_syscall(const void* ucontext) {
  if (!ucontext) return false;
  uint64_t g[kUcNumGregs];
  __builtin_memcpy(g, static_cast<const uint8_t*>(ucontext) + kUcGregsOffset, sizeof(g));
  const uintptr_t pc = uintptr_t(g[kUcPcIndex]);
#if defined(__x86_64__)
  static constexpr uint8_t kInsn[] = {0x0f, 0x05};  // syscall
#else
  static constexpr uint8_t kInsn[] = {0x01, 0x00, 0x00, 0xd4};  // svc #0
#endif
  constexpr size_t n = sizeof kInsn;
  Object o;
  if (pc < n || !find_object(pc, &o)) return false;
  const uintptr_t at_pcs[2] = {pc - n, pc};
  for (uintptr_t at : at_pcs) {
    if (!o.readable(at, n)) continue;
    if (__builtin_memcmp(reinterpret_cast<const void*>(at), kInsn, n) == 0) return true;
  }
  return false;
}

__attribute__((noinline)) int unwind_from_here(int skip, StackBounds b, uint64_t* pcs,
                                               int max_frames, UnwindStatus* status) {
  Walker w;
  erkit_unwind_capture(&w.regs);  // our own state right after this call returns
  w.pc_exact = false;
  init_walker(w, b);
  // One extra frame: the captured pc is inside this function.
  int n = walk(w, (skip > 0 ? skip : 0) + 1, pcs, max_frames, status);
  asm volatile("" : "+r"(n));  // no tail call: walk() reads this frame's saved registers
  return n;
}

}  // namespace erkit::unwind
