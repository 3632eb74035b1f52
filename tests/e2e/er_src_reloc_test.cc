// End-to-end: er_src on a relocatable object (issue 15 item 8). tests/programs/parts/reloc_vec.c is
// compiled with `gcc -g -O2 -c`, with and without -ffunction-sections; the ground truth is
// objdump's symbol table and disassembly of the same .o and the /* MARKER */ lines of the source.
// Before the fix: "'vec_dot' has no line information", `[   ?]` on every instruction,
// `Source file: reloc_vec.c/reloc_vec.c`, and main at 0xe0 where nm says 0.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "e2e_util.h"

namespace erkit::e2e {
namespace {

struct Sym {
  uint64_t addr = 0, size = 0;
  std::string section;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Function symbols from `objdump -t`: "0000000000000040 g     F .text	0000000000000027 vec_scale".
std::map<std::string, Sym> objdump_functions(const std::string& text) {
  std::map<std::string, Sym> out;
  static const std::regex re(R"(^([0-9a-f]+) .{6}F (\S+)\s+([0-9a-f]+) (\S+)$)");
  for (const auto& l : lines_of(text)) {
    std::smatch m;
    if (std::regex_match(l, m, re))
      out[m[4]] = {std::stoull(m[1], nullptr, 16), std::stoull(m[3], nullptr, 16), m[2]};
  }
  return out;
}

// Instruction addresses of one function in `objdump -d`.
std::vector<uint64_t> objdump_instructions(const std::string& text, const std::string& fn) {
  std::vector<uint64_t> out;
  bool in = false;
  static const std::regex ins(R"(^\s+([0-9a-f]+):\t[0-9a-f]{2} .*\t.*$)");
  for (const auto& l : lines_of(text)) {
    if (l.find(" <" + fn + ">:") != std::string::npos) {
      in = true;
      continue;
    }
    if (in && (l.empty() || l.find(">:") != std::string::npos)) break;
    std::smatch m;
    if (in && std::regex_match(l, m, ins)) out.push_back(std::stoull(m[1], nullptr, 16));
  }
  return out;
}

// er_src -disasm rows of one function: address -> line ("?" as 0).
std::vector<std::pair<uint64_t, uint32_t>> listed_instructions(const std::string& text, const std::string& fn) {
  std::vector<std::pair<uint64_t, uint32_t>> out;
  bool in = false;
  static const std::regex ins(R"(^\[\s*(\d+|\?)\] [ >]\s*([0-9a-f]+):  .*$)");
  for (const auto& l : lines_of(text)) {
    if (l.find("<Function: ") != std::string::npos) in = l.find("<Function: " + fn + ">") != std::string::npos;
    std::smatch m;
    if (in && std::regex_match(l, m, ins))
      out.emplace_back(std::stoull(m[2], nullptr, 16), m[1] == "?" ? 0u : uint32_t(std::stoul(m[1])));
  }
  return out;
}

// " 11. " : a listed source line.
std::string fmt_line(int n) { return " " + std::to_string(n) + ". "; }

class ErSrcReloc : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    dir_ = make_workdir(GetParam() ? "er_src_reloc_fs" : "er_src_reloc");
    std::string src = std::string(ERKIT_SOURCE_DIR) + "/tests/programs/parts/reloc_vec.c";
    auto r = run("cd " + dir_ + " && cp " + src + " . && gcc -g -O2 " +
                 (GetParam() ? "-ffunction-sections " : "") + "-c reloc_vec.c -o vec.o 2>&1");
    ASSERT_EQ(r.status, 0) << r.out;
    std::ifstream f(src);
    int n = 0;
    for (std::string l; std::getline(f, l);) {
      ++n;
      size_t a = l.find("/* "), b = l.find(" */", a == std::string::npos ? 0 : a);
      if (a != std::string::npos && b != std::string::npos && l.find(' ', a + 3) == b) marker_[l.substr(a + 3, b - a - 3)] = n;
    }
    ASSERT_EQ(marker_.count("DOT_LOOP"), 1u);
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  RunResult in_dir(const std::string& cmd) { return run("cd " + dir_ + " && " + cmd); }
  RunResult er_src(const std::string& args) { return in_dir(bin("er_src") + " " + args); }
  std::string dir_;
  std::map<std::string, int> marker_;
};

TEST_P(ErSrcReloc, FunctionAddressesAreNmsAndObjdumps) {
  auto t = in_dir("objdump -t vec.o");
  ASSERT_EQ(t.status, 0) << t.err;
  auto truth = objdump_functions(t.out);
  ASSERT_EQ(truth.size(), 4u) << t.out;
  auto f = er_src("-func vec.o");
  ASSERT_EQ(f.status, 0) << f.err;
  for (const auto& [name, s] : truth) {
    // "               0x0       57  .text                vec_dot  (reloc_vec.c)"
    std::regex row("(^|\\n)\\s+0x([0-9a-f]+)\\s+(\\d+)\\s+(\\S+)\\s+" + name + "  \\(reloc_vec\\.c\\)\\n");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(f.out, m, row)) << name << "\n" << f.out;
    EXPECT_EQ(std::stoull(m[2], nullptr, 16), s.addr) << name << "\n" << f.out << t.out;
    EXPECT_EQ(std::stoull(m[3]), s.size) << name << "\n" << f.out << t.out;
    EXPECT_EQ(m[4], s.section) << name << "\n" << f.out << t.out;
  }
}

TEST_P(ErSrcReloc, SourceShowsTheLinesOfTheFunction) {
  auto s = er_src("-source vec_dot 1 vec.o");
  ASSERT_EQ(s.status, 0) << s.err << s.out;
  EXPECT_NE(s.out.find("Source file: reloc_vec.c\n"), std::string::npos) << "the path once\n" << s.out;
  EXPECT_EQ(s.out.find("reloc_vec.c/reloc_vec.c"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("<Function: vec_dot>"), std::string::npos) << s.out;
  for (const char* m : {"DOT_INIT", "DOT_LOOP", "DOT_RETURN"}) {
    std::string row = fmt_line(marker_[m]);
    EXPECT_NE(s.out.find(row), std::string::npos) << m << " at line " << marker_[m] << "\n" << s.out;
  }
  // The index line follows the line of the function's first instruction (addr2line's).
  auto t = in_dir("objdump -t vec.o");
  auto syms = objdump_functions(t.out);
  ASSERT_EQ(syms.count("vec_dot"), 1u) << t.out;
  std::ostringstream cmd;
  cmd << "addr2line -j " << syms["vec_dot"].section << " -e vec.o 0x" << std::hex << syms["vec_dot"].addr;
  auto a2l = in_dir(cmd.str());
  ASSERT_EQ(a2l.status, 0) << cmd.str() << "\n" << a2l.err;
  int entry = std::atoi(a2l.out.substr(a2l.out.rfind(':') + 1).c_str());
  ASSERT_GT(entry, 0) << a2l.out;
  std::regex entry_then_index(fmt_line(entry) + ".*\n +<Function: vec_dot>\n");
  EXPECT_TRUE(std::regex_search(s.out, entry_then_index)) << "entry line " << entry << "\n" << s.out;
  // main is in .text.startup (and with -ffunction-sections every function has its section).
  auto m = er_src("-source main 1 vec.o");
  ASSERT_EQ(m.status, 0) << m.err << m.out;
  EXPECT_NE(m.out.find("<Function: main>"), std::string::npos) << m.out;
}

TEST_P(ErSrcReloc, DisassemblyHasObjdumpsAddressesAndTheLines) {
  auto od = in_dir("objdump -d vec.o");
  ASSERT_EQ(od.status, 0) << od.err;
  auto t = in_dir("objdump -t vec.o");
  auto syms = objdump_functions(t.out);
  ASSERT_EQ(syms.size(), 4u) << t.out;
  auto d = er_src("-disasm vec_dot 1 vec.o");
  ASSERT_EQ(d.status, 0) << d.err << d.out;
  EXPECT_NE(d.out.find("Source file: " + dir_ + "/reloc_vec.c\n"), std::string::npos) << d.out;
  EXPECT_EQ(d.out.find("reloc_vec.c/reloc_vec.c"), std::string::npos) << d.out;
  // The listing holds the compilation unit: every function, each with objdump's addresses.
  for (const char* fn : {"vec_dot", "vec_scale", "vec_report_norm", "main"}) {
    auto want = objdump_instructions(od.out, fn);
    auto got = listed_instructions(d.out, fn);
    ASSERT_FALSE(want.empty()) << fn << "\n" << od.out;
    std::vector<uint64_t> addrs;
    for (const auto& [a, line] : got) addrs.push_back(a);
    // objdump lists the padding after a function's end; er_src lists the symbol's size.
    ASSERT_GE(want.size(), addrs.size()) << fn;
    want.resize(addrs.size());
    EXPECT_EQ(addrs, want) << fn << "\n" << d.out << od.out;
    ASSERT_FALSE(got.empty()) << fn << "\n" << d.out;
    // Each instruction's line is addr2line's for its section offset.
    std::string cmd = "addr2line -j " + syms[fn].section + " -e vec.o";
    for (uint64_t a : addrs) {
      std::ostringstream hex;
      hex << " 0x" << std::hex << a;
      cmd += hex.str();
    }
    auto a2l = in_dir(cmd);
    ASSERT_EQ(a2l.status, 0) << cmd << "\n" << a2l.err;
    auto where = lines_of(a2l.out);
    ASSERT_EQ(where.size(), got.size()) << a2l.out;
    for (size_t i = 0; i < got.size(); ++i) {
      std::string want_line = where[i].substr(where[i].rfind(':') + 1);
      want_line = want_line.substr(0, want_line.find(' '));  // "12 (discriminator 3)"
      EXPECT_EQ(std::to_string(got[i].second), want_line == "?" ? "0" : want_line)
          << fn << " + " << addrs[i] << ": " << where[i] << "\n" << d.out;
    }
  }
  // vec_dot: every instruction on one of its lines, the loop's on DOT_LOOP.
  size_t on_loop = 0;
  for (const auto& [a, line] : listed_instructions(d.out, "vec_dot")) {
    EXPECT_GE(int(line), marker_["DOT_INIT"] - 1) << d.out;
    EXPECT_LE(int(line), marker_["DOT_RETURN"] + 1) << d.out;
    on_loop += int(line) == marker_["DOT_LOOP"];
  }
  EXPECT_GE(on_loop, 4u) << d.out;
  // Calls: the relocation names the target, defined here (vec_dot) or not (vec_report).
  EXPECT_TRUE(std::regex_search(d.out, std::regex(R"(call\S*\s+vec_dot ! 0x0\n)"))) << d.out;
  EXPECT_TRUE(std::regex_search(d.out, std::regex(R"(call\S*\s+vec_report\n)"))) << d.out;
  // The source lines are interleaved.
  EXPECT_NE(d.out.find("/* DOT_LOOP */"), std::string::npos) << d.out;
}

INSTANTIATE_TEST_SUITE_P(Sections, ErSrcReloc, ::testing::Bool(),
                         [](const auto& p) { return p.param ? "FunctionSections" : "TextAndStartup"; });

// An aarch64 .o (clang cross-compiles without a sysroot): lines, and the call to the
// undefined ext_fn named from its R_AARCH64_CALL26 relocation.
TEST(ErSrcRelocAArch64, LinesAndRelocatedCall) {
  if (run("command -v clang").status != 0) GTEST_SKIP() << "no clang to cross-compile for aarch64";
  std::string dir = make_workdir("er_src_reloc_a64");
  std::string src = std::string(ERKIT_SOURCE_DIR) + "/src/disasm/testdata/a64_loop.c";
  auto c = run("cd " + dir + " && clang --target=aarch64-linux-gnu -O1 -g -c " + src + " -o a64.o 2>&1");
  ASSERT_EQ(c.status, 0) << c.out;
  auto d = run("cd " + dir + " && " + bin("er_src") + " -disasm caller 1 a64.o");
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_TRUE(std::regex_search(d.out, std::regex(R"(\[  10\]\s+[0-9a-f]+:  bl\s+ext_fn\n)"))) << d.out;
  EXPECT_NE(d.out.find("<Function: sum_to>"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("[   6]         0:  "), std::string::npos) << "sum_to's loop line at offset 0\n" << d.out;
  if (!HasFailure()) std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace erkit::e2e
