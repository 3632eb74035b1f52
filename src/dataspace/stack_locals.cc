#include "dataspace/stack_locals.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <libelf.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

#include "dataspace/dwarf_describe.h"

namespace erkit::dataspace {

struct StackLocals::Handle {
  int fd = -1;
  Elf* elf = nullptr;
  Dwarf* dw = nullptr;       // null for a file without DWARF: its CFI still unwinds (issue 19)
  Dwarf_CFI* cfi = nullptr;  // .eh_frame of the Elf: dwarf_getcfi_elf's handle is ours to end
  ~Handle() {
    if (cfi) dwarf_cfi_end(cfi);
    if (dw) dwarf_end(dw);
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
  }
};

namespace {

// DWARF x86-64 register number -> index in the record's regs[].
int reg_index(uint64_t dwarf_reg) {
  static const int kMap[17] = {0, 3, 2, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  return dwarf_reg < 17 ? kMap[dwarf_reg] : -1;
}

struct Bases {
  bool have_cfa = false, have_fb = false;
  uint64_t cfa = 0, fb = 0;
};

// A memory location expression's address; false for anything else (a value in a register,
// an implicit value, a piece, an operation not handled).
bool eval(const Dwarf_Op* ops, size_t n, const uint64_t (&regs)[format::kHwcRegCount], const Bases& b, uint64_t* out,
          uint32_t known = StackLocals::kAllRegisters) {
  uint64_t st[8];
  size_t sp = 0;
  auto push = [&](uint64_t v) {
    if (sp == 8) return false;
    st[sp++] = v;
    return true;
  };
  for (size_t i = 0; i < n; ++i) {
    const Dwarf_Op& op = ops[i];
    int idx = -1;
    if (op.atom >= DW_OP_breg0 && op.atom <= DW_OP_breg31) {
      idx = reg_index(op.atom - DW_OP_breg0);
      if (idx < 0 || !(known >> idx & 1) || !push(regs[idx] + op.number)) return false;
    } else if (op.atom == DW_OP_bregx) {
      idx = reg_index(op.number);
      if (idx < 0 || !(known >> idx & 1) || !push(regs[idx] + op.number2)) return false;
    } else if (op.atom == DW_OP_call_frame_cfa) {
      if (!b.have_cfa || !push(b.cfa)) return false;
    } else if (op.atom == DW_OP_fbreg) {
      if (!b.have_fb || !push(b.fb + op.number)) return false;
    } else if (op.atom == DW_OP_plus_uconst) {
      if (sp == 0) return false;
      st[sp - 1] += op.number;
    } else if (op.atom >= DW_OP_lit0 && op.atom <= DW_OP_lit31) {
      if (!push(op.atom - DW_OP_lit0)) return false;
    } else if (op.atom == DW_OP_consts || op.atom == DW_OP_constu || op.atom == DW_OP_const1u ||
               op.atom == DW_OP_const1s || op.atom == DW_OP_const2u || op.atom == DW_OP_const2s ||
               op.atom == DW_OP_const4u || op.atom == DW_OP_const4s || op.atom == DW_OP_const8u ||
               op.atom == DW_OP_const8s) {
      if (!push(op.number)) return false;
    } else if (op.atom == DW_OP_plus || op.atom == DW_OP_minus) {
      if (sp < 2) return false;
      uint64_t r = st[--sp];
      st[sp - 1] = op.atom == DW_OP_plus ? st[sp - 1] + r : st[sp - 1] - r;
    } else {
      return false;  // DW_OP_regN (not in memory), DW_OP_stack_value, DW_OP_piece, ...
    }
  }
  if (sp == 0) return false;
  *out = st[sp - 1];
  return true;
}

bool location(Dwarf_Die* die, unsigned attr_name, uint64_t link_pc, const uint64_t (&regs)[format::kHwcRegCount],
              const Bases& b, uint64_t* out, uint32_t known) {
  Dwarf_Attribute a;
  if (!dwarf_attr(die, attr_name, &a)) return false;
  Dwarf_Op* ops = nullptr;
  size_t n = 0;
  if (dwarf_getlocation_addr(&a, link_pc, &ops, &n, 1) != 1 || n == 0) return false;
  return eval(ops, n, regs, b, out, known);
}

}  // namespace

StackLocals::~StackLocals() = default;

std::unique_ptr<StackLocals> StackLocals::open(const std::string& path) {
  auto h = std::make_unique<Handle>();
  h->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (h->fd < 0) return nullptr;
  elf_version(EV_CURRENT);
  h->elf = elf_begin(h->fd, ELF_C_READ_MMAP, nullptr);
  if (!h->elf) return nullptr;
  h->dw = dwarf_begin_elf(h->elf, DWARF_C_READ, nullptr);
  h->cfi = dwarf_getcfi_elf(h->elf);
  if (!h->dw && !h->cfi) return nullptr;
  std::unique_ptr<StackLocals> s(new StackLocals);
  s->h_ = std::move(h);
  return s;
}

bool StackLocals::find(uint64_t link_pc, const uint64_t (&regs)[format::kHwcRegCount], uint64_t vaddr,
                       DataObjectTable* types, Variable* out, uint32_t known) const {
  Dwarf_Die cu;
  if (!h_->dw || !dwarf_addrdie(h_->dw, link_pc, &cu)) return false;
  Dwarf_Die* scopes = nullptr;
  int ns = dwarf_getscopes(&cu, link_pc, &scopes);
  if (ns <= 0) return false;
  Bases b;
  // The CFA at the PC, from the call-frame information.
  Dwarf_Frame* frame = nullptr;
  if (h_->cfi && dwarf_cfi_addrframe(h_->cfi, link_pc, &frame) == 0) {
    Dwarf_Op* ops = nullptr;
    size_t n = 0;
    if (dwarf_frame_cfa(frame, &ops, &n) == 0) b.have_cfa = eval(ops, n, regs, b, &b.cfa, known);
    free(frame);
  }
  // The frame base of the innermost real (not inlined) function.
  int sub = -1;
  for (int i = 0; i < ns; ++i)
    if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
      sub = i;
      break;
    }
  bool found = false;
  if (sub >= 0) {
    b.have_fb = location(&scopes[sub], DW_AT_frame_base, link_pc, regs, b, &b.fb, known);
    // Innermost scope first: a block's local shadows the function's.
    for (int i = 0; i <= sub && !found; ++i) {
      Dwarf_Die c;
      if (dwarf_child(&scopes[i], &c) != 0) continue;
      do {
        int tag = dwarf_tag(&c);
        if (tag != DW_TAG_variable && tag != DW_TAG_formal_parameter) continue;
        uint64_t addr = 0;
        if (!location(&c, DW_AT_location, link_pc, regs, b, &addr, known)) continue;
        Variable v;
        describe_object(&c, types, &v);
        if (vaddr >= addr && vaddr < addr + v.size) {
          v.addr = addr;
          *out = std::move(v);
          found = true;
          break;
        }
      } while (dwarf_siblingof(&c, &c) == 0);
    }
  }
  free(scopes);
  return found;
}

bool StackLocals::caller_registers(uint64_t link_pc, const uint64_t (&regs)[format::kHwcRegCount], uint32_t known,
                                   uint64_t (&caller)[format::kHwcRegCount], uint32_t* caller_known) const {
  Dwarf_Frame* frame = nullptr;
  if (!h_->cfi || dwarf_cfi_addrframe(h_->cfi, link_pc, &frame) != 0) return false;
  Bases b;
  Dwarf_Op* ops = nullptr;
  size_t n = 0;
  if (dwarf_frame_cfa(frame, &ops, &n) == 0) b.have_cfa = eval(ops, n, regs, b, &b.cfa, known);
  uint32_t out_known = 0;
  if (b.have_cfa) {
    for (int dw = 0; dw < 16; ++dw) {  // DWARF 0..15: rax rdx rcx rbx rsi rdi rbp rsp r8..r15
      const int idx = reg_index(uint64_t(dw));
      caller[idx] = 0;
      if (dw == 7) {  // rsp: the CFA by definition on x86-64
        caller[idx] = b.cfa;
        out_known |= 1u << idx;
        continue;
      }
      Dwarf_Op mem[3];
      Dwarf_Op* rops = nullptr;
      size_t rn = 0;
      if (dwarf_frame_register(frame, dw, mem, &rops, &rn) != 0) continue;
      if (rn == 0) {
        if (rops == nullptr && (known >> idx & 1)) {  // same_value
          caller[idx] = regs[idx];
          out_known |= 1u << idx;
        }
        continue;  // undefined: clobbered by the call
      }
      // A value computed from the CFA or registers (val_offset, val_expression); a register
      // saved in memory (offset(N)) is not recoverable without the stack's contents.
      if (rops[rn - 1].atom == DW_OP_stack_value && eval(rops, rn - 1, regs, b, &caller[idx], known))
        out_known |= 1u << idx;
      else if (rn == 1 && rops[0].atom >= DW_OP_reg0 && rops[0].atom <= DW_OP_reg15) {  // register(R)
        const int from = reg_index(rops[0].atom - DW_OP_reg0);
        if (from >= 0 && (known >> from & 1)) {
          caller[idx] = regs[from];
          out_known |= 1u << idx;
        }
      }
    }
  }
  free(frame);
  caller[16] = 0;  // rip: the return address, from the call stack
  *caller_known = out_known;
  return b.have_cfa;
}

}  // namespace erkit::dataspace
