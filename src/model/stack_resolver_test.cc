// Naming of PCs no symbol covers, on real objects compiled for the test: unnamed PLT slots
// (`@plt`, never `<static>@0x...`) and static functions of a stripped object.
#include "model/stack_resolver.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <gelf.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "folded_experiment.h"
#include "model/profile.h"

namespace erkit::model {
namespace {

// Section name -> address of an ELF file.
std::map<std::string, uint64_t> section_addresses(const std::string& path) {
  std::map<std::string, uint64_t> out;
  elf_version(EV_CURRENT);
  int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return out;
  if (Elf* elf = elf_begin(fd, ELF_C_READ, nullptr)) {
    size_t shstrndx = 0;
    if (elf_getshdrstrndx(elf, &shstrndx) == 0) {
      for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn)) != nullptr;) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) continue;
        if (const char* n = elf_strptr(elf, shstrndx, sh.sh_name)) out[n] = sh.sh_addr;
      }
    }
    elf_end(elf);
  }
  close(fd);
  return out;
}

class StackResolverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // No debug info may be found anywhere for the stripped object.
    unsetenv("DEBUGINFOD_URLS");
    dir_ = testing::temp_path("resolver");
    std::filesystem::create_directories(dir_ + ".src");
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    std::filesystem::remove_all(dir_ + ".src");
  }
  // Compiles `code` into a shared object with `flags`; returns its path ("" on failure).
  std::string compile(const std::string& code, const std::string& flags, const std::string& stem) {
    std::string src = dir_ + ".src/" + stem + ".c", so = dir_ + ".src/" + stem + ".so";
    std::ofstream(src) << code;
    std::string cmd = fmt::format("cc -shared -fPIC -O1 -w {} -o {} {} 2>&1", flags, so, src);
    return std::system(cmd.c_str()) == 0 ? so : "";
  }
  // The functions named for the leaf of each stack, in order (one experiment per call).
  std::vector<std::string> leaf_names(const std::string& object, const std::vector<std::vector<uint64_t>>& stacks) {
    std::string exp = fmt::format("{}/{}.er", dir_, runs_++);
    std::filesystem::create_directories(dir_);
    EXPECT_EQ(testing::write_pc_experiment(exp, object, stacks), "");
    auto r = reader::open_experiment(exp);
    EXPECT_TRUE(r.experiment) << r.error;
    std::vector<std::string> out;
    if (!r.experiment) return out;
    Profile p;
    p.add_experiment(std::move(*r.experiment));
    originals_.clear();
    for (const auto& a : p.aggregates()) {
      out.push_back(p.functions().at(a.funcs.front()).name);
      originals_.push_back(p.functions().at(a.funcs.front()).original);
    }
    return out;
  }
  int runs_ = 0;
  std::vector<std::string> originals_;  // the leaves' `original` (clones), as leaf_names()
  std::string dir_;
};

constexpr const char* kPltCode = R"(
#include <stdio.h>
int entry(int x) { puts("x"); return x + 1; }
)";

TEST_F(StackResolverTest, UnnamedPltSlotsAreAtPlt) {
  // With IBT the .plt holds PLT0 and lazy stubs (jmp *GOT lives in .plt.sec): none is named
  // by a relocation; without IBT only PLT0 is unnamed.
  for (const char* flags : {"-fcf-protection=none", "-fcf-protection=full -Wl,-z,ibtplt"}) {
    SCOPED_TRACE(flags);
    std::string so = compile(kPltCode, flags, flags[16] == 'n' ? "plt_none" : "plt_ibt");
    ASSERT_NE(so, "");
    auto secs = section_addresses(so);
    ASSERT_TRUE(secs.count(".plt"));
    std::string err;
    auto syms = symbols::ObjectSymbols::open(so, "", &err);
    ASSERT_TRUE(syms) << err;
    uint64_t entry = 0, puts_plt = 0;
    for (const auto& f : syms->functions()) {
      if (f.name == "entry") entry = f.addr;
      if (f.name == "puts@plt") puts_plt = f.addr;
    }
    ASSERT_NE(entry, 0u);
    ASSERT_NE(puts_plt, 0u);
    const uint64_t plt0 = secs[".plt"] + 4;
    std::vector<std::vector<uint64_t>> stacks{{plt0, entry + 2}, {puts_plt + 1, entry + 2}};
    // IBT: .plt.sec holds the named slots, .plt the lazy stubs after PLT0 (16 bytes each).
    if (secs.count(".plt.sec")) stacks.push_back({secs[".plt"] + 16 + 4, entry + 2});
    auto names = leaf_names(so, stacks);
    ASSERT_EQ(names.size(), stacks.size());
    EXPECT_EQ(names[0], "@plt");
    EXPECT_EQ(names[1], "puts@plt");
    if (names.size() > 2) {
      EXPECT_EQ(names[2], "@plt");
    }
  }
}

TEST_F(StackResolverTest, StaticFunctionOfStrippedObject) {
  std::string so = compile(R"(
static int __attribute__((noinline)) hidden_helper(int x) { volatile int y = x; return y * 7 + 3; }
int entry(int x) { return hidden_helper(x) + 1; }
)",
                           "", "full");
  ASSERT_NE(so, "");
  std::string err;
  auto syms = symbols::ObjectSymbols::open(so, "", &err);
  ASSERT_TRUE(syms) << err;
  uint64_t entry = 0, hidden = 0;
  for (const auto& f : syms->functions()) {
    if (f.name == "entry") entry = f.addr;
    if (f.name == "hidden_helper") hidden = f.addr;
  }
  ASSERT_NE(entry, 0u);
  ASSERT_NE(hidden, 0u);
  std::string stripped = dir_ + ".src/stripped.so";
  ASSERT_EQ(std::system(fmt::format("strip --strip-all -o {} {}", stripped, so).c_str()), 0);
  const uint64_t text = section_addresses(stripped)[".text"];
  auto names = leaf_names(stripped, {{hidden + 1, entry + 2}});
  ASSERT_EQ(names.size(), 1u);
  // Named after the start of the gap it lies in: within .text, at or before the PC.
  const std::string& n = names[0];
  const std::string suffix = " (<stripped.so>)";
  ASSERT_EQ(n.rfind("<static>@0x", 0), 0u) << n;
  ASSERT_GT(n.size(), suffix.size());
  EXPECT_EQ(n.substr(n.size() - suffix.size()), suffix) << n;
  const uint64_t start = std::strtoull(n.c_str() + 9, nullptr, 16);
  EXPECT_GE(start, text) << n;
  EXPECT_LE(start, hidden + 1) << n;
}

// A compiler clone keeps its name and is mapped to the function it was made from.
TEST_F(StackResolverTest, ClonesAreMappedToTheirOriginal) {
  std::string so = compile(R"(
__attribute__((noinline)) int scale_impl(int x) __asm__("scale.constprop.0");
int scale_impl(int x) { volatile int y = x; return y * 3; }
__attribute__((noinline)) int sum_impl(int x) __asm__("sum.isra.0");
int sum_impl(int x) { volatile int y = x; return y + 5; }
int entry(int x) { return scale_impl(x) + sum_impl(x); }
)",
                           "", "clones");
  ASSERT_NE(so, "");
  std::string err;
  auto syms = symbols::ObjectSymbols::open(so, "", &err);
  ASSERT_TRUE(syms) << err;
  std::map<std::string, uint64_t> addr;
  for (const auto& f : syms->functions()) addr[f.name] = f.addr;
  ASSERT_TRUE(addr.count("scale.constprop.0") && addr.count("sum.isra.0") && addr.count("entry"));
  auto names = leaf_names(so, {{addr["scale.constprop.0"] + 1, addr["entry"] + 2},
                               {addr["sum.isra.0"] + 1, addr["entry"] + 2},
                               {addr["entry"] + 1}});
  ASSERT_EQ(names.size(), 3u);
  EXPECT_EQ(names[0], "scale.constprop.0");
  EXPECT_EQ(originals_[0], "scale");
  EXPECT_EQ(names[1], "sum.isra.0");
  EXPECT_EQ(originals_[1], "sum");
  EXPECT_EQ(names[2], "entry");
  EXPECT_EQ(originals_[2], "");
}

}  // namespace
}  // namespace erkit::model
