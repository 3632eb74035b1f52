#include "disasm/disassembler.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>

#include "disasm/line_table.h"
#include "disasm/object_code.h"
#include "symbols/symbols.h"

namespace erkit::disasm {
namespace {

std::unique_ptr<Disassembler> make(Arch a, Syntax s = Syntax::Att) {
  std::string err;
  auto d = Disassembler::create(a, s, &err);
  EXPECT_TRUE(d) << err;
  return d;
}

TEST(Disassembler, X86FlowTargetsAndBadBytes) {
  // push %rbp; call +0; jne self; (invalid in 64-bit mode); ret
  const uint8_t code[] = {0x55, 0xe8, 0x00, 0x00, 0x00, 0x00, 0x75, 0xfe, 0x06, 0xc3};
  auto d = make(Arch::X86_64);
  auto v = d->decode(code, sizeof code, 0x1000);
  ASSERT_EQ(v.size(), 5u);
  EXPECT_EQ(v[0].mnemonic, "pushq");
  EXPECT_EQ(v[0].operands, "%rbp");
  EXPECT_EQ(v[1].flow, Flow::Call);
  ASSERT_TRUE(v[1].has_target);
  EXPECT_EQ(v[1].target, 0x1006u);
  EXPECT_EQ(v[2].flow, Flow::CondJump);
  EXPECT_EQ(v[2].target, 0x1006u);
  EXPECT_EQ(v[3].mnemonic, ".byte");
  EXPECT_EQ(v[3].size, 1);
  EXPECT_EQ(v[4].flow, Flow::Return);
  EXPECT_EQ(v[4].addr, 0x1009u);
}

TEST(Disassembler, X86IntelSyntax) {
  const uint8_t code[] = {0x48, 0x89, 0xe5};  // mov %rsp,%rbp
  auto v = make(Arch::X86_64, Syntax::Intel)->decode(code, sizeof code, 0);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].mnemonic, "mov");
  EXPECT_EQ(v[0].operands, "rbp, rsp");
}

TEST(Disassembler, AArch64Encodings) {
  // bl +8; cbz w0, +4; ret; (undefined word)
  const uint8_t code[] = {0x02, 0x00, 0x00, 0x94, 0x20, 0x00, 0x00, 0x34, 0xc0, 0x03, 0x5f, 0xd6, 0xff, 0xff, 0xff, 0xff};
  auto v = make(Arch::AArch64)->decode(code, sizeof code, 0x400);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].mnemonic, "bl");
  EXPECT_EQ(v[0].flow, Flow::Call);
  EXPECT_EQ(v[0].target, 0x408u);
  EXPECT_EQ(v[1].flow, Flow::CondJump);
  EXPECT_EQ(v[1].target, 0x408u);
  EXPECT_EQ(v[2].flow, Flow::Return);
  EXPECT_EQ(v[3].mnemonic, ".byte");
  EXPECT_EQ(v[3].size, 4);
}

TEST(Disassembler, UnsupportedArchitectureIsAnError) {
  std::string err;
  EXPECT_FALSE(Disassembler::create(Arch::Unknown, Syntax::Att, &err));
  EXPECT_NE(err.find("x86-64 and aarch64"), std::string::npos);
}

__attribute__((noinline)) int marked_function(int x) {
  return x * 7 + 3;  // LINE:marked
}

int marker_line() {
  std::ifstream in(__FILE__);
  std::string l;
  for (int n = 1; std::getline(in, l); ++n)
    if (l.find(std::string("LINE:") + "marked") != std::string::npos) return n;
  return 0;
}

TEST(ObjectCodeAndLines, OwnExecutableMatchesMemory) {
  Dl_info info{};
  ASSERT_TRUE(dladdr(reinterpret_cast<void*>(&marked_function), &info));
  uint64_t vaddr = reinterpret_cast<uint64_t>(&marked_function) - reinterpret_cast<uint64_t>(info.dli_fbase);
  std::string err;
  auto code = ObjectCode::open("/proc/self/exe", &err);
  ASSERT_TRUE(code) << err;
  EXPECT_EQ(code->arch(), Arch::X86_64);
  auto bytes = code->bytes(vaddr, vaddr + 8);
  ASSERT_EQ(bytes.size(), 8u);
  EXPECT_EQ(std::memcmp(bytes.data(), reinterpret_cast<const void*>(&marked_function), 8), 0);

  auto lt = LineTable::open("/proc/self/exe", "", &err);
  ASSERT_TRUE(lt) << err;
  auto files = lt->files_matching("disassembler_test.cc");
  ASSERT_EQ(files.size(), 1u);
  auto lines = lt->lines_of(files);
  int want = marker_line();
  ASSERT_GT(want, 0);
  ASSERT_TRUE(lines.count(want)) << "no code for line " << want;
  bool covers = false;
  for (const auto& r : lines[want]) covers |= r.lo >= vaddr && r.lo < vaddr + 64;
  EXPECT_TRUE(covers);
  const CompileUnit* cu = lt->cu_at(vaddr);
  ASSERT_TRUE(cu);
  EXPECT_TRUE(path_matches(cu->name, "disassembler_test.cc")) << cu->name;
  EXPECT_NE(cu->producer.find("GNU"), std::string::npos) << cu->producer;
  // A comment line has no code.
  EXPECT_FALSE(lines.count(1));
}

TEST(PathMatches, SuffixAtSlashOnly) {
  EXPECT_TRUE(path_matches("/a/b/x.c", "x.c"));
  EXPECT_TRUE(path_matches("/a/b/x.c", "b/x.c"));
  EXPECT_FALSE(path_matches("/a/b/xx.c", "x.c"));
  EXPECT_FALSE(path_matches("/a/b/x.c", ""));
}

// Cross-built at build time by clang + lld, else the checked-in testdata/a64_loop.so.
TEST(AArch64Object, CrossBuiltSharedObject) {
  std::string path = DISASM_A64_SO, err;
  auto code = ObjectCode::open(path, &err);
  ASSERT_TRUE(code) << err;
  EXPECT_EQ(code->arch(), Arch::AArch64);
  auto syms = symbols::ObjectSymbols::open(path, "", &err);
  ASSERT_TRUE(syms) << err;
  const symbols::FunctionInfo* caller = nullptr;
  for (const auto& f : syms->functions())
    if (f.name == "caller") caller = &f;
  ASSERT_TRUE(caller);
  auto bytes = code->bytes(caller->addr, caller->addr + caller->size);
  auto d = make(Arch::AArch64);
  auto insns = d->decode(bytes.data(), bytes.size(), caller->addr);
  ASSERT_GE(insns.size(), 3u);
  int calls_to_plt = 0;
  for (const auto& i : insns) {
    if (i.flow != Flow::Call || !i.has_target) continue;
    const auto* f = syms->function_at(i.target);
    if (f && f->is_plt && f->name.find("ext_fn") != std::string::npos) ++calls_to_plt;
  }
  EXPECT_EQ(calls_to_plt, 1);
  auto lt = LineTable::open(path, "", &err);
  ASSERT_TRUE(lt) << err;
  auto lines = lt->lines_of(lt->files_matching("a64_loop.c"));
  EXPECT_TRUE(lines.count(6)) << "the loop line has code";
  EXPECT_TRUE(lines.count(10)) << "the call line has code";
  EXPECT_FALSE(lines.count(1));
}

}  // namespace
}  // namespace erkit::disasm
