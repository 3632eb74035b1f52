// The DWARF expression subset that CFI uses: PLT entries' CFA expression
// (rsp + 8 + ((rip & 15) >= 11) * 8), hand-written signal-frame CFI (breg + deref), and the
// occasional stack-realignment rule (deref of a saved CFA). Bounded stack and step count;
// derefs only into the walked stack or the object the expression belongs to.
#include "collector/unwind/internal.h"

namespace erkit::unwind::internal {
namespace {

inline constexpr int kExprStack = 16;
inline constexpr int kExprMaxSteps = 256;

bool deref(const Object& obj, Mem& mem, uint64_t addr, size_t size, uint64_t* out) {
  uint64_t v = 0;
  if (mem.ok(uintptr_t(addr), size) || obj.readable(uintptr_t(addr), size)) {
    __builtin_memcpy(&v, reinterpret_cast<const void*>(addr), size);
    *out = v;
    return true;
  }
  return false;
}

}  // namespace

bool eval_expr(const Object& obj, uintptr_t expr, size_t len, const Regs& regs, Mem& mem,
               bool has_initial, uint64_t initial, uint64_t* out) {
  if (!obj.readable(expr, len)) return false;
  const auto* start = reinterpret_cast<const uint8_t*>(expr);
  Cursor c{start, start + len, true};
  uint64_t st[kExprStack];
  int sp = 0;
  auto push = [&](uint64_t v) {
    if (sp >= kExprStack) return false;
    st[sp++] = v;
    return true;
  };
  auto reg = [&](uint64_t r, uint64_t* v) {
    if (r >= uint64_t(kNumRegs) || !(regs.valid & (uint64_t(1) << r))) return false;
    *v = regs.r[r];
    return true;
  };
  if (has_initial && !push(initial)) return false;

  for (int steps = 0; c.p < c.end && c.ok; ++steps) {
    if (steps > kExprMaxSteps) return false;
    const uint8_t op = c.u8();
    uint64_t a, b;
    if (op >= 0x30 && op <= 0x4f) {  // lit0..lit31
      if (!push(op - 0x30)) return false;
      continue;
    }
    if (op >= 0x70 && op <= 0x8f) {  // breg0..breg31
      const int64_t off = c.sleb();
      if (!reg(op - 0x70, &a) || !push(a + uint64_t(off))) return false;
      continue;
    }
    if (op >= 0x50 && op <= 0x6f) {  // reg0..reg31: only meaningful as a value
      if (!reg(op - 0x50, &a) || !push(a)) return false;
      continue;
    }
    // Binary operators pop b then a and push a OP b.
    if ((op >= 0x1a && op <= 0x1e) || op == 0x21 || op == 0x22 || (op >= 0x24 && op <= 0x27) ||
        (op >= 0x29 && op <= 0x2e)) {
      if (sp < 2) return false;
      b = st[--sp];
      a = st[--sp];
      uint64_t r = 0;
      switch (op) {
        case 0x1a: r = a & b; break;
        case 0x1b: if (b == 0) return false; r = uint64_t(int64_t(a) / int64_t(b)); break;
        case 0x1c: r = a - b; break;
        case 0x1d: if (b == 0) return false; r = a % b; break;
        case 0x1e: r = a * b; break;
        case 0x21: r = a | b; break;
        case 0x22: r = a + b; break;
        case 0x24: r = b >= 64 ? 0 : a << b; break;
        case 0x25: r = b >= 64 ? 0 : a >> b; break;
        case 0x26: r = uint64_t(int64_t(a) >> (b >= 64 ? 63 : b)); break;
        case 0x27: r = a ^ b; break;
        case 0x29: r = a == b; break;
        case 0x2a: r = int64_t(a) >= int64_t(b); break;
        case 0x2b: r = int64_t(a) > int64_t(b); break;
        case 0x2c: r = int64_t(a) <= int64_t(b); break;
        case 0x2d: r = int64_t(a) < int64_t(b); break;
        case 0x2e: r = a != b; break;
      }
      st[sp++] = r;
      continue;
    }
    switch (op) {
      case 0x03: a = c.fixed<uint64_t>(); if (!push(a)) return false; break;  // addr
      case 0x06: {                                                            // deref
        if (sp < 1 || !deref(obj, mem, st[sp - 1], 8, &st[sp - 1])) return false;
        break;
      }
      case 0x08: if (!push(c.u8())) return false; break;
      case 0x09: if (!push(uint64_t(int64_t(int8_t(c.u8()))))) return false; break;
      case 0x0a: if (!push(c.fixed<uint16_t>())) return false; break;
      case 0x0b: if (!push(uint64_t(int64_t(c.fixed<int16_t>())))) return false; break;
      case 0x0c: if (!push(c.fixed<uint32_t>())) return false; break;
      case 0x0d: if (!push(uint64_t(int64_t(c.fixed<int32_t>())))) return false; break;
      case 0x0e: case 0x0f: if (!push(c.fixed<uint64_t>())) return false; break;
      case 0x10: if (!push(c.uleb())) return false; break;
      case 0x11: if (!push(uint64_t(c.sleb()))) return false; break;
      case 0x12: if (sp < 1 || !push(st[sp - 1])) return false; break;  // dup
      case 0x13: if (sp < 1) return false; --sp; break;                  // drop
      case 0x14: if (sp < 2 || !push(st[sp - 2])) return false; break;   // over
      case 0x15: {                                                       // pick
        const uint8_t i = c.u8();
        if (i >= sp || !push(st[sp - 1 - i])) return false;
        break;
      }
      case 0x16:  // swap
        if (sp < 2) return false;
        a = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = a;
        break;
      case 0x17:  // rot
        if (sp < 3) return false;
        a = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = st[sp - 3]; st[sp - 3] = a;
        break;
      case 0x19: if (sp < 1) return false; if (int64_t(st[sp - 1]) < 0) st[sp - 1] = -st[sp - 1]; break;
      case 0x1f: if (sp < 1) return false; st[sp - 1] = -st[sp - 1]; break;
      case 0x20: if (sp < 1) return false; st[sp - 1] = ~st[sp - 1]; break;
      case 0x23: if (sp < 1) return false; st[sp - 1] += c.uleb(); break;  // plus_uconst
      case 0x2f: case 0x28: {  // skip, bra
        const int16_t d = c.fixed<int16_t>();
        if (op == 0x28) {
          if (sp < 1) return false;
          if (st[--sp] == 0) break;
        }
        const uint8_t* target = c.p + d;
        if (target < start || target > c.end) return false;
        c.p = target;
        break;
      }
      case 0x90: {  // regx
        if (!reg(c.uleb(), &a) || !push(a)) return false;
        break;
      }
      case 0x92: {  // bregx
        const uint64_t r = c.uleb();
        const int64_t off = c.sleb();
        if (!reg(r, &a) || !push(a + uint64_t(off))) return false;
        break;
      }
      case 0x94: {  // deref_size
        const uint8_t n = c.u8();
        if (sp < 1 || (n != 1 && n != 2 && n != 4 && n != 8)) return false;
        if (!deref(obj, mem, st[sp - 1], n, &st[sp - 1])) return false;
        break;
      }
      case 0x96: break;  // nop
      default: return false;
    }
  }
  if (!c.ok || sp < 1) return false;
  *out = st[sp - 1];
  return true;
}

}  // namespace erkit::unwind::internal
