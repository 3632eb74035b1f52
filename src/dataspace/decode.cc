#include "dataspace/decode.h"

#include <capstone/capstone.h>

namespace erkit::dataspace {
namespace {

// capstone register -> index in HwcEventRecord::regs, -1 if not a general register we keep.
int reg_index(unsigned r, int* shift_bytes) {
  *shift_bytes = 0;
  switch (r) {
    case X86_REG_RAX: case X86_REG_EAX: return 0;
    case X86_REG_RBX: case X86_REG_EBX: return 1;
    case X86_REG_RCX: case X86_REG_ECX: return 2;
    case X86_REG_RDX: case X86_REG_EDX: return 3;
    case X86_REG_RSI: case X86_REG_ESI: return 4;
    case X86_REG_RDI: case X86_REG_EDI: return 5;
    case X86_REG_RBP: case X86_REG_EBP: return 6;
    case X86_REG_RSP: case X86_REG_ESP: return 7;
    case X86_REG_R8: case X86_REG_R8D: return 8;
    case X86_REG_R9: case X86_REG_R9D: return 9;
    case X86_REG_R10: case X86_REG_R10D: return 10;
    case X86_REG_R11: case X86_REG_R11D: return 11;
    case X86_REG_R12: case X86_REG_R12D: return 12;
    case X86_REG_R13: case X86_REG_R13D: return 13;
    case X86_REG_R14: case X86_REG_R14D: return 14;
    case X86_REG_R15: case X86_REG_R15D: return 15;
    case X86_REG_RIP: return 16;
  }
  return -1;
}

bool is_32bit(unsigned r) {
  switch (r) {
    case X86_REG_EAX: case X86_REG_EBX: case X86_REG_ECX: case X86_REG_EDX: case X86_REG_ESI:
    case X86_REG_EDI: case X86_REG_EBP: case X86_REG_ESP: case X86_REG_R8D: case X86_REG_R9D:
    case X86_REG_R10D: case X86_REG_R11D: case X86_REG_R12D: case X86_REG_R13D: case X86_REG_R14D:
    case X86_REG_R15D:
      return true;
  }
  return false;
}

}  // namespace

std::string unknown_subtype(AddrStatus s) {
  switch (s) {
    case AddrStatus::kPrecise:
    case AddrStatus::kDecoded:
    case AddrStatus::kRipRelativeOk: return "";
    case AddrStatus::kNoCode: return "<Unknown>.(No type information: the code at the trigger PC could not be read)";
    case AddrStatus::kNotMemory:
      return "<Unknown>.(No type information: the instruction at the PC is not a memory reference)";
    case AddrStatus::kSkid:
      return "<Unknown>.(Virtual address could not be determined: a register changed after the trigger instruction)";
    case AddrStatus::kNoContext: return "<Unknown>.(Precise address unavailable: no address or registers recorded)";
    case AddrStatus::kInvalid: return "<Unknown>.(Memory reference did not specify a valid virtual address)";
    case AddrStatus::kBlocked: return "<Unknown>.(Backtracking was blocked by a jump or call instruction)";
  }
  return "<Unknown>";
}

Decoded decode_x86_64(const uint8_t* code, size_t n, uint64_t pc, const uint64_t* regs) {
  Decoded d;
  if (!regs) return d;
  if (regs[16] != pc) {  // the sample's PC is not where the registers were taken
    d.status = AddrStatus::kSkid;
    return d;
  }
  if (!code || n == 0) {
    d.status = AddrStatus::kNoCode;
    return d;
  }
  csh h;
  if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK) {
    d.status = AddrStatus::kNoCode;
    return d;
  }
  cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
  cs_insn* insn = nullptr;
  size_t count = cs_disasm(h, code, n, pc, 1, &insn);
  if (count == 0) {
    cs_close(&h);
    d.status = AddrStatus::kNoCode;
    return d;
  }
  d.status = AddrStatus::kNotMemory;
  const cs_x86& x = insn[0].detail->x86;
  // lea computes an address without touching memory; nop forms with memory operands neither.
  bool no_access = insn[0].id == X86_INS_LEA || insn[0].id == X86_INS_NOP;
  for (uint8_t i = 0; i < x.op_count && !no_access; ++i) {
    const cs_x86_op& op = x.operands[i];
    if (op.type != X86_OP_MEM) continue;
    if (op.mem.segment != X86_REG_INVALID) {  // fs:/gs: thread-local: base unknown here
      d.status = AddrStatus::kInvalid;
      break;
    }
    uint64_t a = uint64_t(op.mem.disp);
    int sh = 0;
    if (op.mem.base != X86_REG_INVALID) {
      int bi = reg_index(op.mem.base, &sh);
      if (bi < 0) {
        d.status = AddrStatus::kInvalid;
        break;
      }
      uint64_t b = op.mem.base == X86_REG_RIP ? pc + insn[0].size : regs[bi];
      if (is_32bit(op.mem.base)) b &= 0xffffffffu;
      a += b;
    }
    if (op.mem.index != X86_REG_INVALID) {
      int ii = reg_index(op.mem.index, &sh);
      if (ii < 0) {
        d.status = AddrStatus::kInvalid;
        break;
      }
      uint64_t v = regs[ii];
      if (is_32bit(op.mem.index)) v &= 0xffffffffu;
      a += v * uint64_t(op.mem.scale);
    }
    d.vaddr = a;
    d.is_store = (op.access & CS_AC_WRITE) != 0;
    d.status = a < 4096 || a >= (uint64_t(1) << 47) ? AddrStatus::kInvalid : AddrStatus::kDecoded;
    break;
  }
  cs_free(insn, count);
  cs_close(&h);
  return d;
}

namespace {

bool is_transfer(csh h, const cs_insn* insn) {
  return cs_insn_group(h, insn, CS_GRP_JUMP) || cs_insn_group(h, insn, CS_GRP_CALL) ||
         cs_insn_group(h, insn, CS_GRP_RET) || cs_insn_group(h, insn, CS_GRP_INT) ||
         cs_insn_group(h, insn, CS_GRP_IRET);
}

// The memory operand of insn, if it accesses memory (not lea/nop).
const cs_x86_op* memory_operand(const cs_insn* insn) {
  if (insn->id == X86_INS_LEA || insn->id == X86_INS_NOP) return nullptr;
  const cs_x86& x = insn->detail->x86;
  for (uint8_t i = 0; i < x.op_count; ++i)
    if (x.operands[i].type == X86_OP_MEM) return &x.operands[i];
  return nullptr;
}

// Marks the register indices (reg_index) that insn writes.
void add_written(csh h, const cs_insn* insn, bool* written) {
  cs_regs rr, ww;
  uint8_t nr = 0, nw = 0;
  if (cs_regs_access(h, insn, rr, &nr, ww, &nw) != CS_ERR_OK) return;
  for (uint8_t i = 0; i < nw; ++i) {
    int sh = 0;
    int k = reg_index(ww[i], &sh);
    if (k >= 0) written[k] = true;
  }
}

}  // namespace

Decoded decode_x86_64_backtrack(const uint8_t* code, size_t n, uint64_t code_addr, uint64_t pc, const uint64_t* regs) {
  Decoded d;
  if (!regs) return d;
  if (regs[16] != pc) {
    d.status = AddrStatus::kSkid;
    return d;
  }
  if (!code || pc < code_addr || pc >= code_addr + n) {
    d.status = AddrStatus::kNoCode;
    return d;
  }
  size_t at = size_t(pc - code_addr);
  d = decode_x86_64(code + at, n - at, pc, regs);
  if (d.status != AddrStatus::kNotMemory) return d;
  // Backtracking (seed-spec §2.2, §6.14): the nearest memory instruction before the PC whose
  // address registers no instruction since has written, within the straight-line code.
  csh h;
  if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK) return d;
  cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
  // A start from which linear decoding lands exactly on the PC (x86 re-synchronises quickly);
  // the longest such window.
  cs_insn* insns = nullptr;
  size_t count = 0;
  for (size_t start = 0; start < at && !count; ++start) {
    cs_insn* try_insns = nullptr;
    size_t c = cs_disasm(h, code + start, at - start, code_addr + start, 0, &try_insns);
    uint64_t end = c ? try_insns[c - 1].address + try_insns[c - 1].size : 0;
    if (c && end == pc && try_insns[0].address == code_addr + start) {
      insns = try_insns;
      count = c;
    } else if (c) {
      cs_free(try_insns, c);
    }
  }
  Decoded out;
  out.status = AddrStatus::kNotMemory;
  bool written[format::kHwcRegCount] = {};
  for (size_t j = count; j-- > 0 && count - j <= 16;) {
    const cs_insn* insn = &insns[j];
    if (is_transfer(h, insn)) {
      out.status = AddrStatus::kBlocked;
      break;
    }
    const cs_x86_op* op = memory_operand(insn);
    add_written(h, insn, written);  // its own writes (mov (%rax),%rax) count too
    if (!op) continue;
    int sh = 0;
    int bi = op->mem.base == X86_REG_INVALID ? -2 : reg_index(op->mem.base, &sh);
    int ii = op->mem.index == X86_REG_INVALID ? -2 : reg_index(op->mem.index, &sh);
    if (op->mem.base == X86_REG_RIP) bi = -2;
    if ((bi >= 0 && written[bi]) || (ii >= 0 && written[ii])) {
      out.status = AddrStatus::kSkid;
      break;
    }
    // Registers as they were when insn ran: unchanged since, so the context's, and its rip.
    uint64_t r2[format::kHwcRegCount];
    for (uint32_t k = 0; k < format::kHwcRegCount; ++k) r2[k] = regs[k];
    r2[16] = insn->address;
    out = decode_x86_64(insn->bytes, insn->size, insn->address, r2);
    break;
  }
  if (count) cs_free(insns, count);
  cs_close(&h);
  return out;
}

}  // namespace erkit::dataspace
