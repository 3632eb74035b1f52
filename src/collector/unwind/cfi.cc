// .eh_frame CFI: FDE lookup through the .eh_frame_hdr table, CIE/FDE parsing and the CFA
// program interpreter. Every read goes through a Cursor bounded by a range that was first
// checked against the object's readable segments, so malformed CFI cannot make us fault.
#include "collector/unwind/internal.h"

namespace erkit::unwind::internal {

uint64_t Cursor::uleb() {
  uint64_t v = 0;
  for (unsigned shift = 0; have(1); shift += 7) {
    const uint8_t b = *p++;
    if (shift < 64) v |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  return 0;
}

int64_t Cursor::sleb() {
  uint64_t v = 0;
  unsigned shift = 0;
  for (; have(1);) {
    const uint8_t b = *p++;
    if (shift < 64) v |= uint64_t(b & 0x7f) << shift;
    shift += 7;
    if (!(b & 0x80)) {
      if (shift < 64 && (b & 0x40)) v |= ~uint64_t(0) << shift;
      return int64_t(v);
    }
  }
  return 0;
}

bool read_encoded(Cursor& c, uint8_t enc, uintptr_t datarel, const Object* obj, uint64_t* out) {
  if (enc == 0xff) return false;  // DW_EH_PE_omit
  const auto field = reinterpret_cast<uintptr_t>(c.p);
  uint64_t v = 0;
  switch (enc & 0x0f) {
    case 0x00: v = c.fixed<uint64_t>(); break;                   // absptr
    case 0x01: v = c.uleb(); break;                              // uleb128
    case 0x02: v = c.fixed<uint16_t>(); break;                   // udata2
    case 0x03: v = c.fixed<uint32_t>(); break;                   // udata4
    case 0x04: v = c.fixed<uint64_t>(); break;                   // udata8
    case 0x09: v = uint64_t(c.sleb()); break;                    // sleb128
    case 0x0a: v = uint64_t(int64_t(c.fixed<int16_t>())); break; // sdata2
    case 0x0b: v = uint64_t(int64_t(c.fixed<int32_t>())); break; // sdata4
    case 0x0c: v = c.fixed<uint64_t>(); break;                   // sdata8
    default: return false;
  }
  if (!c.ok) return false;
  switch (enc & 0x70) {
    case 0x00: break;
    case 0x10: v += field; break;    // pcrel
    case 0x30: v += datarel; break;  // datarel (.eh_frame_hdr start)
    default: return false;           // textrel/funcrel/aligned: not used by GCC/clang on Linux
  }
  if (enc & 0x80) {  // indirect: the value is the address of the pointer
    if (!obj || !obj->readable(v, 8)) return false;
    __builtin_memcpy(&v, reinterpret_cast<const void*>(v), 8);
  }
  *out = v;
  return true;
}

namespace {

struct Cie {
  uint64_t code_align;
  int64_t data_align;
  uint32_t ra_reg;
  uint8_t fde_enc;
  bool aug_z;
  bool signal_frame;
  const uint8_t* insns;
  const uint8_t* end;
};

// Returns the [start, end) of the CIE/FDE record at `a`, checked against the object.
bool record_bounds(const Object& obj, uintptr_t a, const uint8_t** body, const uint8_t** end) {
  if (!obj.readable(a, 4)) return false;
  uint32_t len32;
  __builtin_memcpy(&len32, reinterpret_cast<const void*>(a), 4);
  if (len32 == 0 || len32 == 0xffffffffu) return false;  // terminator / 64-bit DWARF: not in .eh_frame
  if (!obj.readable(a + 4, len32)) return false;
  *body = reinterpret_cast<const uint8_t*>(a + 4);
  *end = *body + len32;
  return true;
}

bool parse_cie(const Object& obj, uintptr_t a, Cie* cie) {
  const uint8_t *body, *end;
  if (!record_bounds(obj, a, &body, &end)) return false;
  Cursor c{body, end, true};
  if (c.fixed<uint32_t>() != 0) return false;  // CIE id is 0 in .eh_frame
  const uint8_t version = c.u8();
  if (version != 1 && version != 3 && version != 4) return false;
  const char* aug = reinterpret_cast<const char*>(c.p);
  while (c.have(1) && *c.p) ++c.p;
  if (!c.have(1)) return false;
  ++c.p;
  if (version == 4) {  // address_size, segment_selector_size
    c.u8();
    c.u8();
  }
  *cie = Cie{};
  cie->code_align = c.uleb();
  cie->data_align = c.sleb();
  cie->ra_reg = version == 1 ? c.u8() : uint32_t(c.uleb());
  cie->fde_enc = 0;  // absptr
  const uint8_t* aug_end = nullptr;
  for (const char* s = aug; *s && c.ok; ++s) {
    switch (*s) {
      case 'z': {
        if (s != aug) return false;
        const uint64_t n = c.uleb();
        if (!c.have(n)) return false;
        cie->aug_z = true;
        aug_end = c.p + n;
        break;
      }
      case 'R': cie->fde_enc = c.u8(); break;
      case 'L': c.u8(); break;  // LSDA encoding; we never need the LSDA itself
      case 'P': {
        uint64_t ignored;
        const uint8_t enc = c.u8();
        // Only the size matters; decode without indirection so GOT contents are not read.
        if (!read_encoded(c, uint8_t(enc & 0x7f), 0, nullptr, &ignored)) return false;
        break;
      }
      case 'S': cie->signal_frame = true; break;
      case 'B': case 'G': break;  // aarch64 B-key / MTE tagged frames: no data
      case 'e':  // legacy "eh": only ever emitted by ancient GCC
      default:
        if (!aug_end) return false;  // cannot skip unknown data without 'z'
        goto done;                   // skip the rest of the data by its length
    }
  }
done:
  if (aug_end) c.p = aug_end;
  if (!c.ok || c.p > end) return false;
  cie->insns = c.p;
  cie->end = end;
  return true;
}

// Locates the FDE for pc: binary search in .eh_frame_hdr's table, then range check.
bool find_fde(const Object& obj, uintptr_t pc, Cie* cie, uintptr_t* start,
              const uint8_t** insns, const uint8_t** insns_end) {
  if (!obj.table || obj.count == 0) return false;
  const auto* table = reinterpret_cast<const int32_t*>(obj.table);
  const int64_t rel = int64_t(pc - obj.hdr);
  uint32_t lo = 0, hi = obj.count;  // first entry with initial_loc > pc
  while (lo < hi) {
    const uint32_t mid = (lo + hi) / 2;
    if (table[2 * mid] <= rel) lo = mid + 1; else hi = mid;
  }
  if (lo == 0) return false;
  const uintptr_t fde = obj.hdr + int64_t(table[2 * (lo - 1) + 1]);
  const uint8_t *body, *end;
  if (!record_bounds(obj, fde, &body, &end)) return false;
  Cursor c{body, end, true};
  const uint32_t cie_off = c.fixed<uint32_t>();
  if (!c.ok || cie_off == 0) return false;
  const uintptr_t cie_addr = reinterpret_cast<uintptr_t>(body) - cie_off;
  if (!parse_cie(obj, cie_addr, cie)) return false;
  uint64_t begin = 0, range = 0;
  if (!read_encoded(c, cie->fde_enc, obj.hdr, &obj, &begin)) return false;
  if (!read_encoded(c, uint8_t(cie->fde_enc & 0x0f), 0, nullptr, &range)) return false;
  if (pc < begin || pc - begin >= range) return false;
  if (cie->aug_z) {
    const uint64_t n = c.uleb();
    if (!c.have(n)) return false;
    c.p += n;
  }
  *start = uintptr_t(begin);
  *insns = c.p;
  *insns_end = end;
  return c.ok;
}

inline constexpr int kStateStackDepth = 8;

struct Interp {
  const Object& obj;
  const Cie& cie;
  uintptr_t target;
  Row* row;
  const Row* initial;  // for DW_CFA_restore; null while running the CIE program
  Row stack[kStateStackDepth];  // deliberately not zeroed: only entries below depth are read
  int depth = 0;

  Interp(const Object& o, const Cie& c, uintptr_t t, Row* r)
      : obj(o), cie(c), target(t), row(r), initial(nullptr) {}

  void set(uint64_t reg, uint8_t kind, int64_t val, uint16_t len = 0) {
    if (reg >= uint64_t(kNumRegs)) return;  // vector/FP registers: not tracked
    row->rules[reg] = Rule{kind, 0, len, int32_t(val)};
  }
  bool expr_block(Cursor& c, int64_t* off, uint16_t* len) {
    const uint64_t n = c.uleb();
    if (!c.have(n) || n > 0xffff) return false;
    *off = int64_t(reinterpret_cast<uintptr_t>(c.p) - obj.lo);
    *len = uint16_t(n);
    c.p += n;
    return true;
  }

  // Runs until the location passes target. Returns false on malformed input.
  bool run(const uint8_t* p, const uint8_t* end, uintptr_t loc) {
    Cursor c{p, end, true};
    const int64_t da = cie.data_align;
    while (c.p < end && c.ok) {
      const uint8_t op = c.u8();
      uint64_t reg = op & 0x3f, delta = 0;
      int64_t off;
      uint16_t len;
      switch (op >> 6) {
        case 1: delta = reg * cie.code_align; goto advance;                // advance_loc
        case 2: set(reg, kRuleOffset, int64_t(c.uleb()) * da); continue;  // offset
        case 3:                                                            // restore
          if (!initial) return false;
          if (reg < uint64_t(kNumRegs)) row->rules[reg] = initial->rules[reg];
          continue;
        default: break;
      }
      switch (op) {
        case 0x00: continue;  // nop
        case 0x01: {          // set_loc
          uint64_t a;
          if (!read_encoded(c, cie.fde_enc, obj.hdr, &obj, &a)) return false;
          if (a > target) return true;
          loc = uintptr_t(a);
          continue;
        }
        case 0x02: delta = c.u8() * cie.code_align; goto advance;
        case 0x03: delta = c.fixed<uint16_t>() * cie.code_align; goto advance;
        case 0x04: delta = c.fixed<uint32_t>() * cie.code_align; goto advance;
        case 0x05: reg = c.uleb(); set(reg, kRuleOffset, int64_t(c.uleb()) * da); continue;
        case 0x06:
          reg = c.uleb();
          if (!initial) return false;
          if (reg < uint64_t(kNumRegs)) row->rules[reg] = initial->rules[reg];
          continue;
        case 0x07: set(c.uleb(), kRuleUndefined, 0); continue;
        case 0x08: set(c.uleb(), kRuleSame, 0); continue;
        case 0x09: reg = c.uleb(); set(reg, kRuleRegister, int64_t(c.uleb())); continue;
        case 0x0a:  // remember_state
          if (depth >= kStateStackDepth) return false;
          stack[depth++] = *row;
          continue;
        case 0x0b:  // restore_state: the whole row, CFA included, as GCC's epilogues expect
          if (depth == 0) return false;
          *row = stack[--depth];
          continue;
        case 0x0c:
          row->cfa_kind = kCfaRegOffset;
          row->cfa_reg = uint16_t(c.uleb());
          row->cfa_off = int64_t(c.uleb());
          continue;
        case 0x0d: row->cfa_kind = kCfaRegOffset; row->cfa_reg = uint16_t(c.uleb()); continue;
        case 0x0e: row->cfa_off = int64_t(c.uleb()); continue;
        case 0x0f:
          if (!expr_block(c, &off, &len)) return false;
          row->cfa_kind = kCfaExpr;
          row->cfa_off = off;
          row->cfa_expr_len = len;
          continue;
        case 0x10:
        case 0x16:
          reg = c.uleb();
          if (!expr_block(c, &off, &len)) return false;
          set(reg, op == 0x10 ? kRuleExpr : kRuleValExpr, off, len);
          continue;
        case 0x11: reg = c.uleb(); set(reg, kRuleOffset, c.sleb() * da); continue;
        case 0x12:
          row->cfa_kind = kCfaRegOffset;
          row->cfa_reg = uint16_t(c.uleb());
          row->cfa_off = c.sleb() * da;
          continue;
        case 0x13: row->cfa_off = c.sleb() * da; continue;
        case 0x14: reg = c.uleb(); set(reg, kRuleValOffset, int64_t(c.uleb()) * da); continue;
        case 0x15: reg = c.uleb(); set(reg, kRuleValOffset, c.sleb() * da); continue;
        case 0x2d: row->ra_signed ^= 1; continue;  // aarch64 negate_ra_state (GNU_window_save)
        case 0x2e: c.uleb(); continue;             // GNU_args_size: only matters for landing pads
        case 0x2f: reg = c.uleb(); set(reg, kRuleOffset, -int64_t(c.uleb()) * da); continue;
        default: return false;
      }
    advance:
      if (loc + delta > target) return true;
      loc += delta;
    }
    return c.ok;
  }
};

}  // namespace

bool compute_row(const Object& obj, uintptr_t pc, Row* row) {
  Cie cie;
  uintptr_t start;
  const uint8_t *insns, *end;
  if (!find_fde(obj, pc, &cie, &start, &insns, &end)) return false;
  if (cie.ra_reg >= uint32_t(kNumRegs)) return false;
  __builtin_memset(row, 0, sizeof(Row));
  row->ra_reg = uint8_t(cie.ra_reg);
  row->signal_frame = cie.signal_frame;
  // One interpreter for both programs so the state stack is allocated once (handler stacks
  // may be small).
  Interp in(obj, cie, ~uintptr_t(0), row);
  if (!in.run(cie.insns, cie.end, start)) return false;
  Row initial = *row;
  in.target = pc;
  in.initial = &initial;
  in.depth = 0;
  return in.run(insns, end, start);
}

}  // namespace erkit::unwind::internal
