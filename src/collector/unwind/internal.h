// Internal interfaces of the unwinder, shared by its .cc files and its unit tests.
// Everything here is async-signal-safe unless a comment says otherwise.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "collector/unwind/arch.h"

namespace erkit::unwind::internal {

// ---- Loaded objects (registry.cc) ------------------------------------------------------------
inline constexpr int kMaxSegments = 8;
inline constexpr int kMaxObjects = 512;

struct Segment {
  uintptr_t lo, hi;
  uint32_t flags;  // PF_R / PF_W / PF_X
  uint32_t pad;
};

// One loaded object as seen at the last refresh(). The memory it describes was mapped by the
// loader; reading inside a PF_R segment cannot fault while the object stays loaded.
struct Object {
  uintptr_t lo, hi;    // lowest and highest address of its PT_LOAD segments
  uintptr_t bias;      // dlpi_addr
  uintptr_t hdr;       // .eh_frame_hdr, 0 if none
  uintptr_t table;     // binary-search table (pairs of datarel sdata4), 0 if unusable
  uint32_t count;      // entries in table
  uint32_t nsegs;
  Segment segs[kMaxSegments];

  bool readable(uintptr_t a, size_t n) const {
    for (uint32_t i = 0; i < nsegs; ++i)
      if ((segs[i].flags & 4u) && a >= segs[i].lo && n <= segs[i].hi - a) return true;
    return false;
  }
  bool executable(uintptr_t pc) const {
    for (uint32_t i = 0; i < nsegs; ++i)
      if ((segs[i].flags & 1u) && pc >= segs[i].lo && pc < segs[i].hi) return true;
    return false;
  }
};

// Copies the object containing `pc` out of the published snapshot; false if none.
bool find_object(uintptr_t pc, Object* out);
// True if pc lies in an executable segment of some registered object.
bool is_code(uintptr_t pc);
// Bumped by refresh() and flush_cache(); part of every cache key.
uint64_t cache_epoch();

// ---- Stack memory checks (unwind.cc) ---------------------------------------------------------
// Decides whether a stack address may be read; see StackBounds in unwind.h.
struct Mem {
  uintptr_t lo, hi;   // trusted range (empty when hi == 0)
  bool probe;         // other pages may be read once verified by a syscall
  uint32_t npages;    // verified pages, a small ring
  uintptr_t pages[8];

  void init(uintptr_t b_lo, uintptr_t b_hi, uintptr_t sp);
  bool ok(uintptr_t addr, size_t n) {
    return (addr >= lo && addr < hi && n <= hi - addr) || ok_slow(addr, n);
  }
  bool ok_slow(uintptr_t addr, size_t n);
  bool read(uintptr_t addr, uint64_t* out) {
    if (!ok(addr, 8)) return false;
    __builtin_memcpy(out, reinterpret_cast<const void*>(addr), 8);
    return true;
  }
};

// ---- CFI rows (cfi.cc) -----------------------------------------------------------------------
enum RuleKind : uint8_t {
  kRuleSame = 0,  // default: the caller's value is the callee's value
  kRuleUndefined,
  kRuleOffset,     // saved at CFA + val
  kRuleValOffset,  // value is CFA + val
  kRuleRegister,   // value is in register val
  kRuleExpr,       // saved at address computed by the expression at obj.lo + val
  kRuleValExpr,    // value computed by the expression
};

struct Rule {
  uint8_t kind;
  uint8_t pad;
  uint16_t len;  // expression length
  int32_t val;
};

enum CfaKind : uint8_t { kCfaRegOffset = 0, kCfaExpr = 1 };

// The unwind row that applies at one PC.
struct Row {
  uint8_t cfa_kind;
  uint8_t ra_signed;     // aarch64: return address signed with PAC (negate_ra_state toggles)
  uint8_t signal_frame;  // CIE augmentation 'S': the caller's PC is exact, not a return address
  uint8_t ra_reg;        // CIE return-address column
  uint16_t cfa_reg;
  uint16_t cfa_expr_len;
  int64_t cfa_off;       // kCfaRegOffset: offset; kCfaExpr: expression at obj.lo + cfa_off
  Rule rules[kNumRegs];
};

// Finds the FDE covering `pc` in `obj` and runs its CIE and FDE programs up to `pc`.
// Every byte read is checked against the object's readable segments.
bool compute_row(const Object& obj, uintptr_t pc, Row* row);

// Evaluates a DWARF expression (the subset CFI uses). `initial` is pushed first when
// has_initial (DW_CFA_expression pushes the CFA). Derefs must hit the stack or `obj`.
bool eval_expr(const Object& obj, uintptr_t expr, size_t len, const Regs& regs, Mem& mem,
               bool has_initial, uint64_t initial, uint64_t* out);

// ---- Little-endian readers over a bounded range (cfi.cc, registry.cc) ------------------------
struct Cursor {
  const uint8_t* p;
  const uint8_t* end;
  bool ok;

  bool have(size_t n) {
    if (!ok || size_t(end - p) < n) ok = false;
    return ok;
  }
  template <typename T>
  T fixed() {
    T v = 0;
    if (have(sizeof(T))) {
      __builtin_memcpy(&v, p, sizeof(T));
      p += sizeof(T);
    }
    return v;
  }
  uint8_t u8() { return fixed<uint8_t>(); }
  uint64_t uleb();
  int64_t sleb();
};

// Decodes a DW_EH_PE_* encoded pointer at c.p. `datarel` is the base for DW_EH_PE_datarel.
// Indirect pointers are dereferenced only inside `obj` (when non-null).
bool read_encoded(Cursor& c, uint8_t enc, uintptr_t datarel, const Object* obj, uint64_t* out);

// ---- Row cache (cache.cc) --------------------------------------------------------------------
enum CacheKind : uint8_t { kCacheRow = 1, kCacheSigreturn = 2, kCacheFramePointer = 3 };
inline constexpr int16_t kSlotSame = 0x7fff;
inline constexpr int16_t kSlotUndefined = 0x7ffe;

// A row reduced to what most code needs: CFA = reg + off, tracked registers saved at CFA + slot.
struct CompactRow {
  uint8_t kind;  // CacheKind
  uint8_t cfa_reg;
  uint8_t signal_frame;
  uint8_t ra_signed;
  int32_t cfa_off;
  int16_t slot[kNumTracked];  // offset from CFA, or kSlotSame / kSlotUndefined
};

// Filled word by word from the cache: reading the fields back is then store-forwarded, while a
// struct copy (16-byte vector loads over 8-byte stores) stalls and costs more than the unwind.
union CompactWords {
  CompactRow row;
  uint64_t w[(sizeof(CompactRow) + 7) / 8];
};

bool cache_get(uintptr_t pc, uint64_t epoch, CompactWords* out);
void cache_put(uintptr_t pc, uint64_t epoch, const CompactRow& row);
// Reduces `row` to a CompactRow; false when it needs the full interpreter.
bool compact_row(const Row& row, CompactRow* out);

}  // namespace erkit::unwind::internal
