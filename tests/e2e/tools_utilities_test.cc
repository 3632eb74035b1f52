// End-to-end: er_cp, er_mv, er_rm and er_export on experiments recorded by collect. A copied or
// moved experiment (or group) must analyse exactly like the original; er_export must show every
// record, and still dump a damaged experiment.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "e2e_util.h"

namespace erkit::e2e {
namespace {
namespace fs = std::filesystem;

class ToolsUtilities : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_workdir("tools_util"); }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  RunResult in_dir(const std::string& cmd) { return run("cd " + dir_ + " && " + cmd); }
  void collect(const std::string& args) {
    auto c = in_dir(bin("collect") + " " + args + " " + program("work_ratio") + " 30000000");
    ASSERT_EQ(c.status, 0) << c.err;
  }
  std::string functions(const std::string& exp) {
    auto p = in_dir(bin("er_print") + " -functions " + exp);
    EXPECT_EQ(p.status, 0) << p.err;
    return p.out;
  }
  std::string dir_;
};

TEST_F(ToolsUtilities, CopyMoveAndRemoveKeepTheAnalysisIdentical) {
  collect("");
  std::string original = functions("test.1.er");
  ASSERT_NE(original.find("two"), std::string::npos) << original;
  auto r = in_dir(bin("er_cp") + " test.1.er copy.er");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(functions("copy.er"), original);
  // Copying onto an existing experiment is an error that changes nothing.
  r = in_dir(bin("er_cp") + " test.1.er copy.er");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("er_cp: 'copy.er' already exists"), std::string::npos) << r.err;
  fs::create_directories(dir_ + "/archive_dir");
  r = in_dir(bin("er_mv") + " copy.er archive_dir");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/copy.er"));
  EXPECT_EQ(functions("archive_dir/copy.er"), original);
  r = in_dir(bin("er_rm") + " archive_dir/copy.er");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/archive_dir/copy.er"));
  EXPECT_TRUE(fs::exists(dir_ + "/archive_dir"));
  EXPECT_EQ(functions("test.1.er"), original) << "the source is untouched";
}

TEST_F(ToolsUtilities, GroupsAreCopiedWithTheirMembersAndRemovedMembersFirst) {
  collect("-g two.erg");
  collect("-g two.erg");
  std::string original = functions("two.erg");
  fs::create_directories(dir_ + "/elsewhere");
  auto r = in_dir(bin("er_cp") + " two.erg elsewhere");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ + "/elsewhere/test.1.er/log") && fs::exists(dir_ + "/elsewhere/test.2.er/log"));
  EXPECT_EQ(functions("elsewhere/two.erg"), original);
  r = in_dir(bin("er_rm") + " two.erg");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/two.erg") || fs::exists(dir_ + "/test.1.er") || fs::exists(dir_ + "/test.2.er"));
  EXPECT_TRUE(fs::exists(dir_ + "/elsewhere/two.erg"));
}

TEST_F(ToolsUtilities, NonExperimentsAreRefused) {
  fs::create_directories(dir_ + "/src");
  std::ofstream(dir_ + "/src/keep.c") << "int x;\n";
  for (const char* cmd : {"er_rm src", "er_rm -f src", "er_cp src x.er", "er_mv src x.er"}) {
    auto r = in_dir(bin(cmd));
    EXPECT_EQ(r.status, std::string(cmd).find("-f") == std::string::npos ? 1 : 0) << cmd;
    EXPECT_TRUE(fs::exists(dir_ + "/src/keep.c")) << cmd;
  }
  auto r = in_dir(bin("er_rm") + " src");
  EXPECT_NE(r.err.find("er_rm: 'src' is a directory whose name does not end in .er; not removed"), std::string::npos) << r.err;
  EXPECT_EQ(in_dir(bin("er_cp") + " -V").out.rfind("er_cp: erkit ", 0), 0u);
}

// Sums the User CPU nanoseconds of every clock_sample line of er_export's dump.
int64_t dumped_user_ns(const std::string& dump, int* samples) {
  std::regex re(R"(clock_sample .* ns=\[(\d+) )");
  int64_t sum = 0;
  *samples = 0;
  for (std::sregex_iterator it(dump.begin(), dump.end(), re), end; it != end; ++it) {
    sum += std::stoll((*it)[1]);
    ++*samples;
  }
  return sum;
}

TEST_F(ToolsUtilities, ExportShowsEveryRecordAndSurvivesDamage) {
  collect("");
  auto d = in_dir(bin("er_export") + " test.1.er");
  ASSERT_EQ(d.status, 0) << d.err;
  for (const char* section : {"== log", "== map", "== stacks", "== profile", "erkit-experiment-log 1", " load path="})
    EXPECT_NE(d.out.find(section), std::string::npos) << section;
  int samples = 0;
  int64_t user_ns = dumped_user_ns(d.out, &samples);
  ASSERT_GT(samples, 0) << d.out;
  // The dump holds exactly the data er_print sums: <Total> User CPU agrees to the millisecond.
  auto rows = parse_function_list(functions("test.1.er"));
  ASSERT_TRUE(rows.count("<Total>"));
  EXPECT_NEAR(rows["<Total>"].values[0], double(user_ns) / 1e9, 0.0011);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(d.out, m, std::regex(R"(== profile[\s\S]*?(\d+) records, 0 incomplete)")));
  EXPECT_EQ(std::stoi(m[1]), samples);
  // Stack PCs are placed in their load objects.
  EXPECT_TRUE(std::regex_search(d.out, std::regex(R"(pcs=\[0x[0-9a-f]+\(work_ratio\+0x[0-9a-f]+\))")));

  // Damage: cut the profile inside its first record and corrupt a stack record's size.
  std::string prof = dir_ + "/test.1.er/profile";
  fs::resize_file(prof, 4096 + 40);
  {
    std::fstream st(dir_ + "/test.1.er/stacks", std::ios::in | std::ios::out | std::ios::binary);
    st.seekp(4096);
    uint32_t bad = (1u << 16) | 12;  // kind 1 (stack), size 12: not a multiple of 8
    st.write(reinterpret_cast<const char*>(&bad), 4);
  }
  d = in_dir(bin("er_export") + " test.1.er");
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_NE(d.out.find("(truncated)"), std::string::npos);
  EXPECT_NE(d.out.find("corrupt record word 0x0001000c"), std::string::npos) << d.out.substr(0, 3000);
  auto bad = in_dir(bin("er_export") + " no_such.er");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("no such experiment"), std::string::npos);
}

}  // namespace
}  // namespace erkit::e2e
