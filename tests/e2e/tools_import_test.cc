// End-to-end: a real `perf record` of a purpose-built program, imported with er_import and
// analysed with er_print, shows the program's known work ratio (two() does twice one()'s work)
// and complete call stacks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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
    // JSON: exact nanoseconds (the text report's rounded seconds made `main >= one + two` fail
    // on rounding: 0.282 >= 0.282 - 0.001 with the third decimal rounded the other way).
    auto p = in_dir(bin("er_print") + " -json -functions " + exp);
    ASSERT_EQ(p.status, 0) << p.err;
    auto rows = parse_json_function_rows(p.out);
    ASSERT_TRUE(rows.count("one") && rows.count("two") && rows.count("<Total>")) << p.out;
    // Columns: exclusive ns, exclusive %, inclusive ns, inclusive %.
    const double one = rows["one"][0], two = rows["two"][0], total = rows["<Total>"][0];
    // two() does twice one()'s work; the ground truth is the CPU time the kernel measured for
    // each call (the program writes it), since the other core's load changes what work costs.
    auto truth = read_seconds_by_name(dir_ + "/truth.txt");
    ASSERT_TRUE(truth.count("one") && truth.count("two"));
    double true_ratio = truth["two"] / truth["one"];
    // perf samples cpu-clock at 4 kHz: one sample per 250 us of CPU. The margin follows the
    // sample counts: 4 standard errors of a ratio of two counts (Poisson, an upper bound for
    // periodic sampling), at least the 15 % that a loaded machine's timer slack has needed.
    const double n_one = one / 250000.0, n_two = two / 250000.0;
    ASSERT_GT(n_one, 40) << "too few samples to compare\n" << p.out;
    double margin = std::max(0.15, 4 * std::sqrt(1 / n_one + 1 / n_two));
    EXPECT_NEAR(two / one, true_ratio, margin * true_ratio) << p.out;
    EXPECT_GT((one + two) / total, 0.9) << p.out;
    if (full_stacks) {
      ASSERT_TRUE(rows.count("main")) << p.out;
      EXPECT_GE(rows["main"][2], one + two) << p.out;  // inclusive main, exact nanoseconds
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
