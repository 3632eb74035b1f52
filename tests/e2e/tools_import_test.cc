// End-to-end: a real `perf record` of a purpose-built program, imported with er_import and
// analysed with er_print, shows the program's known work ratio (two() does twice one()'s work)
// and complete call stacks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "e2e_util.h"

namespace erkit::e2e {
namespace {
namespace fs = std::filesystem;

class ToolsImport : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_workdir("tools_import"); }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  RunResult in_dir(const std::string& cmd) { return run("cd " + dir_ + " && " + cmd); }
  // Records work_ratio with perf; false (test skipped) when perf cannot record here.
  bool perf_record(const std::string& callgraph) {
    auto r = in_dir("perf record -q " + callgraph + " -e cpu-clock -o perf.data " + program("work_ratio") + " 100000000 truth.txt");
    if (r.status != 0) {
      skip_reason_ = "perf record failed: " + r.err;
      return false;
    }
    return true;
  }
  void expect_work_ratio(const std::string& exp, bool full_stacks) {
    auto p = in_dir(bin("er_print") + " -functions " + exp);
    ASSERT_EQ(p.status, 0) << p.err;
    auto rows = parse_function_list(p.out);
    ASSERT_TRUE(rows.count("one") && rows.count("two") && rows.count("<Total>")) << p.out;
    // two() does twice one()'s work; the ground truth is the CPU time the kernel measured for
    // each call (the program writes it), since the other core's load changes what work costs.
    // ~0.2 s sampled at 4 kHz: ~800 samples, ~4 % sampling error on one()'s ~270.
    auto truth = read_seconds_by_name(dir_ + "/truth.txt");
    ASSERT_TRUE(truth.count("one") && truth.count("two"));
    double true_ratio = truth["two"] / truth["one"];
    double total = rows["<Total>"].values[0];
    EXPECT_NEAR(rows["two"].values[0] / rows["one"].values[0], true_ratio, 0.15 * true_ratio) << p.out;
    EXPECT_GT((rows["one"].values[0] + rows["two"].values[0]) / total, 0.9) << p.out;
    if (full_stacks) {
      ASSERT_TRUE(rows.count("main")) << p.out;
      EXPECT_GE(rows["main"].values[2], rows["one"].values[0] + rows["two"].values[0] - 0.001) << p.out;
    }
  }
  std::string dir_, skip_reason_;
};

TEST_F(ToolsImport, PerfDataWithDwarfCallChainsShowsTheHotFunctionsShare) {
  if (!perf_record("--call-graph dwarf")) GTEST_SKIP() << skip_reason_;
  auto r = in_dir(bin("er_import") + " perf.data");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("er_import: wrote perf.1.er"), std::string::npos) << r.out;
  expect_work_ratio("perf.1.er", true);
  // The imported experiment is a normal one: the utilities and exports take it.
  auto cp = in_dir(bin("er_cp") + " perf.1.er copy.er");
  EXPECT_EQ(cp.status, 0) << cp.err;
  auto folded = in_dir(bin("er_convert") + " -format folded -o - copy.er");
  EXPECT_NE(folded.out.find(";main;two "), std::string::npos) << folded.out;
}

TEST_F(ToolsImport, PerfScriptTextInPerfsDefaultLayout) {
  if (!perf_record("-g")) GTEST_SKIP() << skip_reason_;
  // Default `perf script` output (comm, tid, [cpu], sym+off, inlined frames) read from stdin.
  auto r = in_dir("perf script -i perf.data 2>/dev/null | " + bin("er_import") + " -o text.er -");
  ASSERT_EQ(r.status, 0) << r.err;
  expect_work_ratio("text.er", false);
}

TEST_F(ToolsImport, BadInputGetsAClearMessage) {
  std::ofstream(dir_ + "/notes.txt") << "hello\nworld\n";
  auto r = in_dir(bin("er_import") + " notes.txt");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("is not perf script output"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/perf.1.er"));
  r = in_dir(bin("er_import") + " -o bad_name notes.txt");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("must end in .er"), std::string::npos) << r.err;
  r = in_dir(bin("er_import") + " missing.data");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no such file"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace erkit::e2e
