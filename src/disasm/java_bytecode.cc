#include "disasm/java_bytecode.h"

#include <fmt/format.h>

namespace erkit::disasm {
namespace {

// JVMS §6.5 mnemonics by opcode (0x00-0xca); empty: undefined.
const char* const kNames[] = {
    "nop", "aconst_null", "iconst_m1", "iconst_0", "iconst_1", "iconst_2", "iconst_3", "iconst_4", "iconst_5",
    "lconst_0", "lconst_1", "fconst_0", "fconst_1", "fconst_2", "dconst_0", "dconst_1", "bipush", "sipush", "ldc",
    "ldc_w", "ldc2_w", "iload", "lload", "fload", "dload", "aload", "iload_0", "iload_1", "iload_2", "iload_3",
    "lload_0", "lload_1", "lload_2", "lload_3", "fload_0", "fload_1", "fload_2", "fload_3", "dload_0", "dload_1",
    "dload_2", "dload_3", "aload_0", "aload_1", "aload_2", "aload_3", "iaload", "laload", "faload", "daload",
    "aaload", "baload", "caload", "saload", "istore", "lstore", "fstore", "dstore", "astore", "istore_0",
    "istore_1", "istore_2", "istore_3", "lstore_0", "lstore_1", "lstore_2", "lstore_3", "fstore_0", "fstore_1",
    "fstore_2", "fstore_3", "dstore_0", "dstore_1", "dstore_2", "dstore_3", "astore_0", "astore_1", "astore_2",
    "astore_3", "iastore", "lastore", "fastore", "dastore", "aastore", "bastore", "castore", "sastore", "pop",
    "pop2", "dup", "dup_x1", "dup_x2", "dup2", "dup2_x1", "dup2_x2", "swap", "iadd", "ladd", "fadd", "dadd", "isub",
    "lsub", "fsub", "dsub", "imul", "lmul", "fmul", "dmul", "idiv", "ldiv", "fdiv", "ddiv", "irem", "lrem", "frem",
    "drem", "ineg", "lneg", "fneg", "dneg", "ishl", "lshl", "ishr", "lshr", "iushr", "lushr", "iand", "land", "ior",
    "lor", "ixor", "lxor", "iinc", "i2l", "i2f", "i2d", "l2i", "l2f", "l2d", "f2i", "f2l", "f2d", "d2i", "d2l", "d2f",
    "i2b", "i2c", "i2s", "lcmp", "fcmpl", "fcmpg", "dcmpl", "dcmpg", "ifeq", "ifne", "iflt", "ifge", "ifgt", "ifle",
    "if_icmpeq", "if_icmpne", "if_icmplt", "if_icmpge", "if_icmpgt", "if_icmple", "if_acmpeq", "if_acmpne", "goto",
    "jsr", "ret", "tableswitch", "lookupswitch", "ireturn", "lreturn", "freturn", "dreturn", "areturn", "return",
    "getstatic", "putstatic", "getfield", "putfield", "invokevirtual", "invokespecial", "invokestatic",
    "invokeinterface", "invokedynamic", "new", "newarray", "anewarray", "arraylength", "athrow", "checkcast",
    "instanceof", "monitorenter", "monitorexit", "wide", "multianewarray", "ifnull", "ifnonnull", "goto_w", "jsr_w",
    "breakpoint"};
constexpr unsigned kOpcodes = sizeof kNames / sizeof kNames[0];
static_assert(kOpcodes == 0xcb);

enum class Form { kNone, kS1, kS2, kCp1, kCp2, kLocal, kIinc, kBranch2, kBranch4, kInvokeInterface, kInvokeDynamic,
                  kNewArray, kMultiANewArray, kTableSwitch, kLookupSwitch, kWide };

Form form_of(uint8_t op) {
  if (op == 0x10) return Form::kS1;
  if (op == 0x11) return Form::kS2;
  if (op == 0x12) return Form::kCp1;
  if (op == 0x13 || op == 0x14) return Form::kCp2;
  if ((op >= 0x15 && op <= 0x19) || (op >= 0x36 && op <= 0x3a) || op == 0xa9) return Form::kLocal;
  if (op == 0x84) return Form::kIinc;
  if ((op >= 0x99 && op <= 0xa8) || op == 0xc6 || op == 0xc7) return Form::kBranch2;
  if (op == 0xc8 || op == 0xc9) return Form::kBranch4;
  if (op == 0xaa) return Form::kTableSwitch;
  if (op == 0xab) return Form::kLookupSwitch;
  if ((op >= 0xb2 && op <= 0xb8) || op == 0xbb || op == 0xbd || op == 0xc0 || op == 0xc1) return Form::kCp2;
  if (op == 0xb9) return Form::kInvokeInterface;
  if (op == 0xba) return Form::kInvokeDynamic;
  if (op == 0xbc) return Form::kNewArray;
  if (op == 0xc4) return Form::kWide;
  if (op == 0xc5) return Form::kMultiANewArray;
  return Form::kNone;
}

const char* array_type(uint8_t t) {
  static const char* const kTypes[] = {"boolean", "char", "float", "double", "byte", "short", "int", "long"};
  return t >= 4 && t <= 11 ? kTypes[t - 4] : "?";
}

}  // namespace

std::vector<Bytecode> decode_bytecodes(const std::vector<uint8_t>& code) {
  std::vector<Bytecode> out;
  const size_t n = code.size();
  auto u1 = [&](size_t at) { return uint32_t(code[at]); };
  auto u2 = [&](size_t at) { return uint32_t(code[at]) << 8 | code[at + 1]; };
  auto s4 = [&](size_t at) { return int32_t(u2(at) << 16 | u2(at + 2)); };
  size_t pc = 0;
  while (pc < n) {
    Bytecode b;
    b.bci = uint32_t(pc);
    b.opcode = code[pc];
    size_t len = 1;
    bool ok = b.opcode < kOpcodes;
    auto need = [&](size_t k) { return pc + k <= n; };
    auto branch = [&](int64_t off) {
      int64_t t = int64_t(pc) + off;
      b.operands = fmt::format("{}", t);
      if (t >= 0 && t < int64_t(n)) b.targets.push_back(uint32_t(t));
    };
    if (ok) {
      b.mnemonic = kNames[b.opcode];
      switch (form_of(b.opcode)) {
        case Form::kNone: break;
        case Form::kS1: len = 2; if ((ok = need(len))) b.operands = fmt::format("{}", int8_t(code[pc + 1])); break;
        case Form::kS2: len = 3; if ((ok = need(len))) b.operands = fmt::format("{}", int16_t(u2(pc + 1))); break;
        case Form::kCp1: len = 2; if ((ok = need(len))) b.operands = fmt::format("#{}", u1(pc + 1)); break;
        case Form::kCp2: len = 3; if ((ok = need(len))) b.operands = fmt::format("#{}", u2(pc + 1)); break;
        case Form::kLocal: len = 2; if ((ok = need(len))) b.operands = fmt::format("{}", u1(pc + 1)); break;
        case Form::kIinc:
          len = 3;
          if ((ok = need(len))) b.operands = fmt::format("{}, {}", u1(pc + 1), int8_t(code[pc + 2]));
          break;
        case Form::kBranch2: len = 3; if ((ok = need(len))) branch(int16_t(u2(pc + 1))); break;
        case Form::kBranch4: len = 5; if ((ok = need(len))) branch(s4(pc + 1)); break;
        case Form::kInvokeInterface:
          len = 5;
          if ((ok = need(len))) b.operands = fmt::format("#{}, {}", u2(pc + 1), u1(pc + 3));
          break;
        case Form::kInvokeDynamic: len = 5; if ((ok = need(len))) b.operands = fmt::format("#{}, 0", u2(pc + 1)); break;
        case Form::kNewArray: len = 2; if ((ok = need(len))) b.operands = array_type(code[pc + 1]); break;
        case Form::kMultiANewArray:
          len = 4;
          if ((ok = need(len))) b.operands = fmt::format("#{}, {}", u2(pc + 1), u1(pc + 3));
          break;
        case Form::kWide: {
          // wide <load/store/ret> u2 index, or wide iinc u2 index s2 const.
          if (!(ok = need(2))) break;
          uint8_t op = code[pc + 1];
          bool iinc = op == 0x84;
          len = iinc ? 6 : 4;
          if (!(ok = need(len) && (iinc || form_of(op) == Form::kLocal))) break;
          b.mnemonic = std::string("wide ") + kNames[op];
          b.operands = iinc ? fmt::format("{}, {}", u2(pc + 2), int16_t(u2(pc + 4))) : fmt::format("{}", u2(pc + 2));
          break;
        }
        case Form::kTableSwitch:
        case Form::kLookupSwitch: {
          // Operands start at the next multiple of 4 from the method's start.
          size_t at = (pc + 4) & ~size_t(3);
          const bool table = b.opcode == 0xaa;
          if (!(ok = need(at - pc + 12))) break;
          int32_t def = s4(at), a = s4(at + 4), c = s4(at + 8);
          int64_t entries = table ? int64_t(c) - a + 1 : a;
          if (!(ok = entries >= 0 && entries <= int64_t(n))) break;
          size_t body = table ? size_t(entries) * 4 : size_t(entries) * 8;
          len = at - pc + (table ? 12 : 8) + body;
          if (!(ok = need(len))) break;
          std::string s = "{ ";
          for (int64_t k = 0; k < entries; ++k) {
            int32_t key = table ? int32_t(a + k) : s4(at + 8 + size_t(k) * 8);
            int32_t off = table ? s4(at + 12 + size_t(k) * 4) : s4(at + 12 + size_t(k) * 8);
            branch(off);
            s += fmt::format("{}: {}, ", key, b.operands);
          }
          branch(def);
          b.operands = s + "default: " + b.operands + " }";
          break;
        }
      }
    }
    if (!ok) {
      b.mnemonic = "<bad>";
      b.operands.clear();
      b.targets.clear();
      len = n - pc;
    }
    b.size = uint32_t(len);
    out.push_back(std::move(b));
    pc += len;
  }
  return out;
}

}  // namespace erkit::disasm
