#include "kernel/kernel_elf.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "symbols/symbols.h"

namespace erkit::kernel {
namespace {

KernelObject sample_object() {
  KernelObject o;
  o.name = "vmlinux";
  o.lo = 0xffffffff81000000ull;
  o.hi = 0xffffffff81004000ull;
  o.build_id = "0123456789abcdef0123456789abcdef01234567";
  o.symbols = {{0xffffffff81000000ull, 0x1000, "_stext", true},
               {0xffffffff81001000ull, 0x200, "do_syscall_64", true},
               {0xffffffff81001200ull, 0x2e00, "vfs_write", false}};
  return o;
}

std::string temp_path(const char* tag) { return testing::TempDir() + "/kelf_" + tag + std::to_string(getpid()); }

TEST(KernelElf, SymbolsAndBuildIdReadBackThroughElfutils) {
  std::string path = temp_path("nobits");
  std::string err;
  ASSERT_TRUE(write_kernel_elf(path, sample_object(), {}, &err)) << err;
  EXPECT_EQ(symbols::read_build_id(path), "0123456789abcdef0123456789abcdef01234567");
  auto syms = symbols::ObjectSymbols::open(path, "", &err);
  ASSERT_TRUE(syms) << err;
  const symbols::FunctionInfo* f = syms->function_at(0xffffffff81001010ull);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->name, "do_syscall_64");
  EXPECT_EQ(f->addr, 0xffffffff81001000ull);
  EXPECT_EQ(f->size, 0x200u);
  f = syms->function_at(0xffffffff81003000ull);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->name, "vfs_write");  // a local (t) symbol
  EXPECT_EQ(syms->function_at(0xffffffff81005000ull), nullptr);
  unlink(path.c_str());
}

TEST(KernelElf, CodeBytesAreKeptWhenGiven) {
  std::string path = temp_path("code");
  KernelObject o = sample_object();
  std::vector<uint8_t> code(o.hi - o.lo, 0x90);  // nops
  std::string err;
  ASSERT_TRUE(write_kernel_elf(path, o, code, &err)) << err;
  auto syms = symbols::ObjectSymbols::open(path, "", &err);
  ASSERT_TRUE(syms) << err;
  const symbols::SectionInfo* sec = syms->section_at(0xffffffff81001000ull);
  ASSERT_TRUE(sec);
  EXPECT_TRUE(sec->executable);
  FILE* f = std::fopen(path.c_str(), "rb");
  ASSERT_TRUE(f);
  std::fseek(f, 0, SEEK_END);
  EXPECT_GT(std::ftell(f), long(code.size()));
  std::fclose(f);
  unlink(path.c_str());
}

TEST(KernelElf, UnwritablePathIsAnError) {
  std::string err;
  EXPECT_FALSE(write_kernel_elf("/nonexistent-dir/x", sample_object(), {}, &err));
  EXPECT_NE(err.find("cannot write"), std::string::npos);
}

}  // namespace
}  // namespace erkit::kernel
