#include "disasm/disassembler.h"

#include <capstone/capstone.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace erkit::disasm {
namespace {

Flow x86_flow(csh h, const cs_insn* in) {
  if (cs_insn_group(h, in, CS_GRP_CALL)) return Flow::Call;
  if (cs_insn_group(h, in, CS_GRP_RET) || cs_insn_group(h, in, CS_GRP_IRET)) return Flow::Return;
  if (cs_insn_group(h, in, CS_GRP_JUMP)) return in->id == X86_INS_JMP || in->id == X86_INS_LJMP ? Flow::Jump : Flow::CondJump;
  return Flow::None;
}

Flow a64_flow(csh h, const cs_insn* in) {
  switch (in->id) {
    case ARM64_INS_BL:
    case ARM64_INS_BLR: return Flow::Call;
    case ARM64_INS_RET: return Flow::Return;
    case ARM64_INS_B: return in->detail->arm64.cc == ARM64_CC_INVALID || in->detail->arm64.cc == ARM64_CC_AL ? Flow::Jump : Flow::CondJump;
    case ARM64_INS_BR: return Flow::Jump;
    case ARM64_INS_CBZ:
    case ARM64_INS_CBNZ:
    case ARM64_INS_TBZ:
    case ARM64_INS_TBNZ: return Flow::CondJump;
    default: break;
  }
  if (cs_insn_group(h, in, CS_GRP_CALL)) return Flow::Call;
  if (cs_insn_group(h, in, CS_GRP_RET)) return Flow::Return;
  if (cs_insn_group(h, in, CS_GRP_JUMP)) return Flow::Jump;
  return Flow::None;
}

// The destination of a direct branch: the last immediate operand of a relative branch.
bool direct_target(Arch arch, const cs_insn* in, uint64_t* target) {
  if (arch == Arch::X86_64) {
    const cs_x86& x = in->detail->x86;
    if (x.op_count == 1 && x.operands[0].type == X86_OP_IMM) {
      *target = uint64_t(x.operands[0].imm);
      return true;
    }
    return false;
  }
  const cs_arm64& a = in->detail->arm64;
  if (a.op_count > 0 && a.operands[a.op_count - 1].type == ARM64_OP_IMM) {
    *target = uint64_t(a.operands[a.op_count - 1].imm);
    return true;
  }
  return false;
}

}  // namespace

std::unique_ptr<Disassembler> Disassembler::create(Arch arch, Syntax syntax, std::string* error) {
  cs_arch ca;
  cs_mode mode;
  switch (arch) {
    case Arch::X86_64: ca = CS_ARCH_X86, mode = CS_MODE_64; break;
    case Arch::AArch64: ca = CS_ARCH_ARM64, mode = CS_MODE_ARM; break;
    default:
      *error = "disassembly is supported for x86-64 and aarch64 objects only";
      return nullptr;
  }
  csh h = 0;
  if (cs_open(ca, mode, &h) != CS_ERR_OK) {
    *error = "capstone cannot open a disassembler for this architecture";
    return nullptr;
  }
  cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
  if (arch == Arch::X86_64) cs_option(h, CS_OPT_SYNTAX, syntax == Syntax::Att ? CS_OPT_SYNTAX_ATT : CS_OPT_SYNTAX_INTEL);
  auto d = std::unique_ptr<Disassembler>(new Disassembler);
  d->arch_ = arch;
  d->handle_ = h;
  return d;
}

Disassembler::~Disassembler() {
  csh h = handle_;
  if (h) cs_close(&h);
}

std::vector<Instruction> Disassembler::decode(const uint8_t* code, size_t n, uint64_t addr) const {
  std::vector<Instruction> out;
  csh h = handle_;
  cs_insn* in = cs_malloc(h);
  const size_t skip = arch_ == Arch::AArch64 ? 4 : 1;
  const uint8_t* p = code;
  size_t left = n;
  uint64_t a = addr;
  while (left > 0) {
    Instruction ins;
    if (cs_disasm_iter(h, &p, &left, &a, in)) {
      ins.addr = in->address;
      ins.size = uint8_t(in->size);
      std::memcpy(ins.bytes, in->bytes, std::min<size_t>(in->size, sizeof ins.bytes));
      ins.mnemonic = in->mnemonic;
      ins.operands = in->op_str;
      ins.flow = arch_ == Arch::X86_64 ? x86_flow(h, in) : a64_flow(h, in);
      if (ins.flow == Flow::Call || ins.flow == Flow::Jump || ins.flow == Flow::CondJump)
        ins.has_target = direct_target(arch_, in, &ins.target);
    } else {
      size_t k = std::min(skip, left);
      ins.addr = a;
      ins.size = uint8_t(k);
      std::memcpy(ins.bytes, p, k);
      ins.mnemonic = ".byte";
      for (size_t i = 0; i < k; ++i) ins.operands += fmt::format("{}{:#04x}", i ? ", " : "", p[i]);
      p += k;
      left -= k;
      a += k;
    }
    out.push_back(std::move(ins));
  }
  cs_free(in, 1);
  return out;
}

}  // namespace erkit::disasm
