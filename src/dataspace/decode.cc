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

}  // namespace erkit::dataspace
