#include "dataspace/decode.h"

#include <gtest/gtest.h>

namespace erkit::dataspace {
namespace {

struct Regs {
  uint64_t r[format::kHwcRegCount] = {};
  Regs(uint64_t pc) { r[16] = pc; }
};

TEST(Decode, BaseIndexScaleDisplacement) {
  const uint8_t code[] = {0x48, 0x8b, 0x4c, 0xd8, 0x10};  // mov 0x10(%rax,%rbx,8),%rcx
  Regs g(0x401000);
  g.r[0] = 0x7f0000001000;  // rax
  g.r[1] = 3;               // rbx
  Decoded d = decode_x86_64(code, sizeof code, 0x401000, g.r);
  EXPECT_EQ(d.status, AddrStatus::kDecoded);
  EXPECT_EQ(d.vaddr, 0x7f0000001000u + 3 * 8 + 0x10);
  EXPECT_FALSE(d.is_store);
}

TEST(Decode, StoreThroughRegister) {
  const uint8_t code[] = {0x48, 0x89, 0x0f};  // mov %rcx,(%rdi)
  Regs g(0x401000);
  g.r[5] = 0x600040;  // rdi
  Decoded d = decode_x86_64(code, sizeof code, 0x401000, g.r);
  EXPECT_EQ(d.status, AddrStatus::kDecoded);
  EXPECT_EQ(d.vaddr, 0x600040u);
  EXPECT_TRUE(d.is_store);
}

TEST(Decode, RipRelativeUsesTheNextInstructionsAddress) {
  const uint8_t code[] = {0x8b, 0x05, 0x00, 0x01, 0x00, 0x00};  // mov 0x100(%rip),%eax
  Regs g(0x401000);
  Decoded d = decode_x86_64(code, sizeof code, 0x401000, g.r);
  EXPECT_EQ(d.status, AddrStatus::kDecoded);
  EXPECT_EQ(d.vaddr, 0x401000u + 6 + 0x100);
}

TEST(Decode, UnknownSubtypes) {
  Regs g(0x401000);
  const uint8_t add[] = {0x48, 0x01, 0xc3};  // add %rax,%rbx
  EXPECT_EQ(decode_x86_64(add, sizeof add, 0x401000, g.r).status, AddrStatus::kNotMemory);
  const uint8_t lea[] = {0x48, 0x8d, 0x58, 0x08};  // lea 0x8(%rax),%rbx: no access
  EXPECT_EQ(decode_x86_64(lea, sizeof lea, 0x401000, g.r).status, AddrStatus::kNotMemory);
  const uint8_t load[] = {0x48, 0x8b, 0x07};  // mov (%rdi),%rax with rdi = 0
  EXPECT_EQ(decode_x86_64(load, sizeof load, 0x401000, g.r).status, AddrStatus::kInvalid);
  // Registers taken at another PC than the sample's (skid): the address cannot be trusted.
  EXPECT_EQ(decode_x86_64(load, sizeof load, 0x401004, g.r).status, AddrStatus::kSkid);
  EXPECT_EQ(decode_x86_64(nullptr, 0, 0x401000, g.r).status, AddrStatus::kNoCode);
  EXPECT_EQ(decode_x86_64(load, sizeof load, 0x401000, nullptr).status, AddrStatus::kNoContext);
  for (auto s : {AddrStatus::kNoCode, AddrStatus::kNotMemory, AddrStatus::kSkid, AddrStatus::kNoContext,
                 AddrStatus::kInvalid})
    EXPECT_EQ(unknown_subtype(s).rfind("<Unknown>.(", 0), 0u);
  EXPECT_EQ(unknown_subtype(AddrStatus::kPrecise), "");
}

}  // namespace
}  // namespace erkit::dataspace

namespace erkit::dataspace {
namespace {

// A loop body as GCC emits it: addsd (%rax),%xmm0; add $0x40,%rax; addsd -0x8(%rax),%xmm0;
// cmp %rax,%rdx; jne -> backtracking from cmp/jne finds the addsd, from after an
// `add` to its base register it is skid, across the jne it is blocked.
const uint8_t kLoop[] = {
    0xf2, 0x0f, 0x58, 0x00,        // 0x1000 addsd (%rax),%xmm0
    0x48, 0x83, 0xc0, 0x40,        // 0x1004 add $0x40,%rax
    0xf2, 0x0f, 0x58, 0x40, 0xf8,  // 0x1008 addsd -0x8(%rax),%xmm0
    0x48, 0x39, 0xc2,              // 0x100d cmp %rax,%rdx
    0x75, 0xee,                    // 0x1010 jne 0x1000
    0x48, 0x83, 0xc1, 0x01,        // 0x1012 add $0x1,%rcx
};

TEST(Backtrack, FromACompareAndABranchToTheLoad) {
  for (uint64_t pc : {0x100du, 0x1010u}) {
    Regs g(pc);
    g.r[0] = 0x601040;  // rax after the add
    Decoded d = decode_x86_64_backtrack(kLoop, sizeof kLoop, 0x1000, pc, g.r);
    EXPECT_EQ(d.status, AddrStatus::kDecoded) << std::hex << pc;
    EXPECT_EQ(d.vaddr, 0x601038u) << std::hex << pc;
  }
}

TEST(Backtrack, ARegisterWrittenSinceIsSkidAndABranchBlocks) {
  Regs g(0x1004);  // at the add: the addsd before it used the same rax
  g.r[0] = 0x601000;
  Decoded d = decode_x86_64_backtrack(kLoop, sizeof kLoop, 0x1000, 0x1004, g.r);
  EXPECT_EQ(d.status, AddrStatus::kDecoded);
  EXPECT_EQ(d.vaddr, 0x601000u);
  // At the second addsd itself: decoded directly.
  Regs g2(0x1008);
  g2.r[0] = 0x601040;
  EXPECT_EQ(decode_x86_64_backtrack(kLoop, sizeof kLoop, 0x1000, 0x1008, g2.r).vaddr, 0x601038u);
  // After the jne: blocked.
  Regs g3(0x1012);
  EXPECT_EQ(decode_x86_64_backtrack(kLoop, sizeof kLoop, 0x1000, 0x1012, g3.r).status, AddrStatus::kBlocked);
  // A load whose base the next instruction changed: mov (%rax),%rcx; add $8,%rax; [pc] cmp.
  const uint8_t code[] = {0x48, 0x8b, 0x08, 0x48, 0x83, 0xc0, 0x08, 0x48, 0x39, 0xc2};
  Regs g4(0x2007);
  g4.r[0] = 0x601008;
  EXPECT_EQ(decode_x86_64_backtrack(code, sizeof code, 0x2000, 0x2007, g4.r).status, AddrStatus::kSkid);
}

}  // namespace
}  // namespace erkit::dataspace
