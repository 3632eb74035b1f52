// End-to-end: the special lines of source and disassembly (seed-spec §10.7) in GCC code:
// outlined `.cold` parts, `.constprop`/`.isra` clones, and the `<static>@0x...` functions of a
// stripped program (tests/programs/src_special.c).
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "e2e_util.h"

namespace erkit::e2e {
namespace {

// src_special built by gcc -O2 -g, and a stripped copy, profiled once.
class SourceSpecialLines : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = make_workdir("source_special");
    std::string src = std::string(ERKIT_SOURCE_DIR) + "/tests/programs/src_special.c";
    auto r = run("cd " + dir_ + " && cp " + src + " . && gcc -O2 -g src_special.c -o special 2>&1 && " +
                 "strip -s special -o stripped 2>&1 && " + bin("collect") + " -p hi ./special 2>&1 && " + bin("collect") +
                 " -p hi -o stripped.er ./stripped 2>&1");
    error_ = r.status == 0 ? "" : "build or collect failed: " + r.out;
  }
  static void TearDownTestSuite() {
    if (error_.empty()) std::filesystem::remove_all(dir_);
  }
  void SetUp() override { ASSERT_EQ(error_, ""); }
  RunResult er_print(const std::string& args, const std::string& exp = "test.1.er") {
    return run("cd " + dir_ + " && " + bin("er_print") + " " + args + " " + exp);
  }
  static std::string dir_, error_;
};
std::string SourceSpecialLines::dir_, SourceSpecialLines::error_;

TEST_F(SourceSpecialLines, OutlinedColdCodeAndClonesInSource) {
  auto s = er_print("-source src_special.c");
  ASSERT_EQ(s.status, 0) << s.err;
  const std::regex cold(R"(<Function: guarded -- outline code from line \d+ \[guarded\.cold\]>)");
  EXPECT_TRUE(std::regex_search(s.out, cold)) << s.out;
  EXPECT_NE(s.out.find("<Function: scaled.constprop.0 -- clone of scaled>"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("<Function: from_params.isra.0 -- clone of from_params>"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("<Function: guarded>"), std::string::npos) << s.out;
  // The clones' time lands on the original's source lines.
  EXPECT_GT(row_value(s.out, "CLONE-HOT"), 0.05) << s.out;
  EXPECT_GT(row_value(s.out, "ISRA-HOT"), 0.05) << s.out;
  auto f = er_print("-functions");
  auto rows = parse_function_list(f.out);
  EXPECT_TRUE(rows.count("scaled.constprop.0") && rows.count("from_params.isra.0") && rows.count("guarded")) << f.out;
}

TEST_F(SourceSpecialLines, OutlinedColdCodeAndClonesInDisassembly) {
  auto d = er_print("-disasm guarded");
  ASSERT_EQ(d.status, 0) << d.err;
  // The whole compilation unit: the cold part and the clones with their own index lines.
  const std::regex cold(R"(<Function: guarded -- outline code from line \d+ \[guarded\.cold\]>\n.*\[ *\d+\] )");
  EXPECT_TRUE(std::regex_search(d.out, cold)) << d.out;
  EXPECT_NE(d.out.find("<Function: scaled.constprop.0 -- clone of scaled>"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("<Function: from_params.isra.0 -- clone of from_params>"), std::string::npos) << d.out;
  // A clone is listed by its own name too.
  auto c = er_print("-disasm scaled.constprop.0");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.out.find("CLONE-HOT"), std::string::npos) << c.out;
}

TEST_F(SourceSpecialLines, StaticFunctionsOfAStrippedProgram) {
  auto f = er_print("-functions", "stripped.er");
  ASSERT_EQ(f.status, 0) << f.err;
  std::smatch m;
  const std::regex row(R"(\s([0-9.]+)\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+(<static>@0x[0-9a-f]+ \(<stripped>\))\n)");
  ASSERT_TRUE(std::regex_search(f.out, m, row)) << f.out;
  const std::string name = m[2].str();  // the hottest
  // Issue 15 item 3: code without symbols is one function per .eh_frame FDE, not one for the
  // whole .text; together they hold the program's time.
  double sum = 0;
  size_t count = 0;
  for (std::sregex_iterator it(f.out.begin(), f.out.end(), row), end; it != end; ++it, ++count)
    sum += std::stod((*it)[1].str());
  EXPECT_GT(sum, 0.2) << f.out;
  EXPECT_GE(count, 2u) << f.out;
  auto p = er_print("-pcs", "stripped.er");
  EXPECT_NE(p.out.find(name + " + 0x"), std::string::npos) << p.out;
  EXPECT_TRUE(std::regex_search(p.out, std::regex(R"(<static>@0x[0-9a-f]+ \(<stripped>\) \+ 0x[0-9A-F]{8}\n)"))) << p.out;
  // Its disassembly: the code up to the next symbol, without lines, the hot divide marked.
  auto d = er_print("-disasm \"" + name + "\"", "stripped.er");
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_NE(d.out.find("<Function: " + name + ">"), std::string::npos) << d.out;
  EXPECT_TRUE(std::regex_search(d.out, std::regex(R"(\n## .*\[   \?\] .*:  )"))) << d.out;
  EXPECT_NE(d.out.find("divsd"), std::string::npos) << d.out;
  auto s = er_print("-source \"" + name + "\"", "stripped.er");
  EXPECT_NE(s.status, 0);
  EXPECT_NE(s.err.find("has no line information"), std::string::npos) << s.err;
}

}  // namespace
}  // namespace erkit::e2e
