// End-to-end: two static functions of one name in one executable (tests/programs/
// static_twins.c and parts/static_twins_b.c) stay two functions (seed-spec §6.13, non-unique
// names): two rows with their own times, N required and each one's source and disassembly.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "e2e_util.h"

namespace erkit::e2e {
namespace {

class SourceStaticTwins : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = make_workdir("static_twins");
    auto r = run("cd " + dir_ + " && " + bin("collect") + " -p hi " + program("static_twins") + " 2>&1");
    error_ = r.status == 0 ? "" : "collect failed: " + r.out;
  }
  static void TearDownTestSuite() {
    if (error_.empty()) std::filesystem::remove_all(dir_);
  }
  void SetUp() override { ASSERT_EQ(error_, ""); }
  RunResult er_print(const std::string& args) {
    return run("cd " + dir_ + " && " + bin("er_print") + " " + args + " test.1.er");
  }
  static std::string dir_, error_;
};
std::string SourceStaticTwins::dir_, SourceStaticTwins::error_;

// static_twins.c's work() runs twice the iterations of parts/static_twins_b.c's: two rows,
// named apart by their source file, with times in that ratio.
TEST_F(SourceStaticTwins, TwoStaticFunctionsOfOneNameAreTwoRows) {
  auto f = er_print("-functions");
  ASSERT_EQ(f.status, 0) << f.err;
  auto rows = parse_function_list(f.out);
  auto a = rows.find("work (static_twins:static_twins.c)");
  auto b = rows.find("work (static_twins:static_twins_b.c)");
  ASSERT_TRUE(a != rows.end() && b != rows.end()) << f.out;
  ASSERT_GE(a->second.values.size(), 1u);
  double ta = a->second.values[0], tb = b->second.values[0];
  EXPECT_GT(tb, 0.04) << f.out;
  EXPECT_GT(ta / tb, 1.4) << f.out;
  EXPECT_LT(ta / tb, 2.8) << f.out;
  EXPECT_EQ(rows.count("work"), 0u) << "never merged into one\n" << f.out;
  // Callers tell them apart too: main calls a's, run_b calls b's.
  auto c = er_print("-callers-callees");
  EXPECT_TRUE(std::regex_search(c.out, std::regex(R"(main\n.*\*work \(static_twins:static_twins\.c\))"))) << c.out;
  EXPECT_TRUE(std::regex_search(c.out, std::regex(R"(run_b\n.*\*work \(static_twins:static_twins_b\.c\))"))) << c.out;
}

TEST_F(SourceStaticTwins, AmbiguousNameNeedsNOnTheCommandLine) {
  for (const char* cmd : {"-source work", "-disasm work", "-fsingle work"}) {
    auto r = er_print(cmd);
    EXPECT_NE(r.status, 0) << cmd << "\n" << r.out;
    // Candidates in address order: this file's work() is linked first.
    std::smatch m;
    EXPECT_TRUE(std::regex_search(r.err, m, std::regex(R"(1\) work \(.*static_twins, static_twins\.c\))"))) << r.err;
    EXPECT_TRUE(std::regex_search(r.err, m, std::regex(R"(2\) work \(.*static_twins, static_twins_b\.c\))"))) << r.err;
  }
}

TEST_F(SourceStaticTwins, NPicksEachFunctionsSourceAndCode) {
  auto s1 = er_print("-source work 1");
  ASSERT_EQ(s1.status, 0) << s1.err;
  EXPECT_TRUE(std::regex_search(s1.out, std::regex(R"(^Source file: .*/static_twins\.c\n)"))) << s1.out;
  EXPECT_GT(row_value(s1.out, "TWIN-A"), 0.1) << s1.out;
  auto s2 = er_print("-source work 2");
  ASSERT_EQ(s2.status, 0) << s2.err;
  EXPECT_TRUE(std::regex_search(s2.out, std::regex(R"(^Source file: .*/parts/static_twins_b\.c\n)"))) << s2.out;
  EXPECT_GT(row_value(s2.out, "TWIN-B"), 0.04) << s2.out;
  EXPECT_GT(row_value(s1.out, "TWIN-A"), row_value(s2.out, "TWIN-B")) << "twice the work";
  auto d1 = er_print("-disasm work 1");
  auto d2 = er_print("-disasm work 2");
  ASSERT_EQ(d1.status, 0) << d1.err;
  ASSERT_EQ(d2.status, 0) << d2.err;
  EXPECT_NE(d1.out.find("TWIN-A"), std::string::npos) << d1.out;
  EXPECT_EQ(d1.out.find("TWIN-B"), std::string::npos) << d1.out;
  EXPECT_NE(d2.out.find("TWIN-B"), std::string::npos) << "source of a relative DWARF path\n" << d2.out;
  EXPECT_EQ(d2.out.find("TWIN-A"), std::string::npos) << d2.out;
  auto f2 = er_print("-fsingle work 2");
  ASSERT_EQ(f2.status, 0) << f2.err;
  EXPECT_EQ(f2.out.rfind("work (static_twins:static_twins_b.c)\n", 0), 0u) << f2.out;
  EXPECT_TRUE(std::regex_search(f2.out, std::regex(R"(Source File:\s+\S*static_twins_b\.c)"))) << f2.out;
  // The displayed name selects one without N.
  auto byname = er_print("-fsingle \"work (static_twins:static_twins.c)\"");
  ASSERT_EQ(byname.status, 0) << byname.err;
  EXPECT_EQ(byname.out.rfind("work (static_twins:static_twins.c)\n", 0), 0u) << byname.out;
}

}  // namespace
}  // namespace erkit::e2e
