#include "disasm/java_bytecode.h"

#include <gtest/gtest.h>

namespace erkit::disasm {
namespace {

std::string listing(const std::vector<uint8_t>& code) {
  std::string s;
  for (const auto& b : decode_bytecodes(code))
    s += std::to_string(b.bci) + ": " + b.mnemonic + (b.operands.empty() ? "" : " " + b.operands) + "\n";
  return s;
}

// A loop as javac writes it (for (int i = 0; i < 100; i++) x += i; return x), by hand.
TEST(JavaBytecode, DecodesOperandsAndBranchTargets) {
  std::vector<uint8_t> code = {0x03, 0x3c,              // 0 iconst_0, 1 istore_1
                               0x1b, 0x10, 0x64,        // 2 iload_1, 3 bipush 100
                               0xa2, 0x00, 0x0d,        // 5 if_icmpge 18
                               0x1a, 0x1b, 0x60, 0x3b,  // 8 iload_0 9 iload_1 10 iadd 11 istore_0
                               0x84, 0x01, 0x01,        // 12 iinc 1, 1
                               0xa7, 0xff, 0xf3,        // 15 goto 2
                               0x1a, 0xac};             // 18 iload_0 19 ireturn
  EXPECT_EQ(listing(code),
            "0: iconst_0\n1: istore_1\n2: iload_1\n3: bipush 100\n5: if_icmpge 18\n8: iload_0\n9: iload_1\n"
            "10: iadd\n11: istore_0\n12: iinc 1, 1\n15: goto 2\n18: iload_0\n19: ireturn\n");
  auto b = decode_bytecodes(code);
  EXPECT_EQ(b[4].targets, std::vector<uint32_t>{18});
  EXPECT_EQ(b[10].targets, std::vector<uint32_t>{2});
  EXPECT_EQ(b[10].size, 3u);
}

TEST(JavaBytecode, ConstantPoolInvokeWideAndArrays) {
  std::vector<uint8_t> code = {0x11, 0xff, 0x38,              // 0 sipush -200
                               0xb6, 0x00, 0x07,              // 3 invokevirtual #7
                               0xb9, 0x00, 0x09, 0x02, 0x00,  // 6 invokeinterface #9, 2
                               0xba, 0x00, 0x0b, 0x00, 0x00,  // 11 invokedynamic #11, 0
                               0xc4, 0x84, 0x01, 0x00, 0xff, 0xfe,  // 16 wide iinc 256, -2
                               0xc4, 0x15, 0x01, 0x02,        // 22 wide iload 258
                               0xbc, 0x0b,                    // 26 newarray long
                               0xc5, 0x00, 0x03, 0x02,        // 28 multianewarray #3, 2
                               0x12, 0x05, 0xb1};             // 32 ldc #5, 34 return
  EXPECT_EQ(listing(code),
            "0: sipush -200\n3: invokevirtual #7\n6: invokeinterface #9, 2\n11: invokedynamic #11, 0\n"
            "16: wide iinc 256, -2\n22: wide iload 258\n26: newarray long\n28: multianewarray #3, 2\n"
            "32: ldc #5\n34: return\n");
}

// Switch operands are aligned to 4 bytes from the method's start.
TEST(JavaBytecode, SwitchesWithPadding) {
  std::vector<uint8_t> code = {0x1a,                    // 0 iload_0
                               0xaa, 0x00, 0x00,        // 1 tableswitch, 2 bytes padding
                               0, 0, 0, 27,             // 4 default +27 -> 28
                               0, 0, 0, 1,              // low 1
                               0, 0, 0, 2,              // high 2
                               0, 0, 0, 23, 0, 0, 0, 25,  // 1 -> 24, 2 -> 26
                               0x03, 0xac, 0x04, 0xac, 0x05, 0xac};  // 24.. 29
  auto b = decode_bytecodes(code);
  ASSERT_EQ(b.size(), 8u);
  EXPECT_EQ(b[1].mnemonic, "tableswitch");
  EXPECT_EQ(b[1].operands, "{ 1: 24, 2: 26, default: 28 }");
  EXPECT_EQ(b[1].size, 23u);
  EXPECT_EQ(b[2].bci, 24u);
  std::vector<uint8_t> lk = {0xab, 0, 0, 0,  // 0 lookupswitch, 3 bytes padding
                             0, 0, 0, 20,    // default -> 20
                             0, 0, 0, 1,     // 1 pair
                             0xff, 0xff, 0xff, 0xff, 0, 0, 0, 21,  // -1 -> 21
                             0xb1, 0xb1};
  EXPECT_EQ(listing(lk), "0: lookupswitch { -1: 21, default: 20 }\n20: return\n21: return\n");
}

// Cut or undefined code: one <bad> entry to the end, nothing read past it.
TEST(JavaBytecode, TruncatedAndUndefinedCodeEndsInBad) {
  EXPECT_EQ(listing({0x03, 0xb6, 0x00}), "0: iconst_0\n1: <bad>\n");
  EXPECT_EQ(listing({0x03, 0xfe, 0x03}), "0: iconst_0\n1: <bad>\n");
  EXPECT_EQ(listing({0xaa, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0, 0, 0, 0, 0, 0, 0}), "0: <bad>\n");
  EXPECT_EQ(listing({0xc4, 0x60, 0, 1}), "0: <bad>\n");
  EXPECT_TRUE(decode_bytecodes({}).empty());
}

}  // namespace
}  // namespace erkit::disasm
