#include "model/pc_line_metrics.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "folded_experiment.h"

namespace erkit::model {
namespace {

constexpr int64_t kTick = 10000000;

class PcLineMetricsTest : public ::testing::Test {
 protected:
  void load(const std::vector<std::string>& folded) {
    dir_ = testing::temp_path("pcline");
    ASSERT_EQ(testing::write_folded_experiment(dir_, folded), "");
    auto r = reader::open_experiment(dir_);
    ASSERT_TRUE(r.experiment) << r.error;
    profile_.add_experiment(std::move(*r.experiment));
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    std::filesystem::remove_all(dir_ + ".src");
  }
  std::string name(FuncId f) { return profile_.functions().at(f).name; }
  std::string dir_;
  Profile profile_;
};

// The synthetic object has no debug information: every PC falls into its function's
// "no line number" aggregate, the rows er_print lines shows for such functions.
TEST_F(PcLineMetricsTest, FunctionsWithoutLinesAggregateAndRecursionCountsOnce) {
  load({"main;A;C 3", "main;B;C 2", "main;A;A 4"});
  PcLineMetrics m = compute_pc_line_metrics(profile_);
  std::map<std::string, std::pair<int64_t, int64_t>> by_func;
  for (const auto& l : m.lines) {
    EXPECT_EQ(l.line, 0u);
    by_func[name(l.func)] = {l.excl[kUser] / kTick, l.incl[kUser] / kTick};
  }
  EXPECT_EQ(by_func["C"], std::make_pair(int64_t(5), int64_t(5)));
  EXPECT_EQ(by_func["A"], std::make_pair(int64_t(4), int64_t(7)));
  EXPECT_EQ(by_func["B"], std::make_pair(int64_t(0), int64_t(2)));
  EXPECT_EQ(by_func["main"], std::make_pair(int64_t(0), int64_t(9)));

  int64_t leaf_sum = 0;
  int64_t caller_rows = 0;
  for (const auto& p : m.pcs) {
    leaf_sum += p.excl[kUser];
    if (p.caller) {
      ++caller_rows;
      EXPECT_EQ(p.excl[kUser], 0) << "a return address never receives exclusive time";
      EXPECT_GT(p.incl[kUser], 0);
    } else {
      EXPECT_EQ(p.excl[kUser], p.incl[kUser]);
    }
    EXPECT_EQ(p.func, profile_.resolver().pcs()[p.pc].func);
  }
  EXPECT_EQ(leaf_sum, profile_.totals()[kUser]);
  EXPECT_GE(caller_rows, 3);  // main (two call sites) and A calling A or C
}

TEST_F(PcLineMetricsTest, KeepRestrictsToOneFunction) {
  load({"main;A;C 3", "main;B 2"});
  FuncId b = 0;
  for (FuncId f = 0; f < profile_.functions().size(); ++f)
    if (name(f) == "B") b = f;
  PcLineMetrics m = compute_pc_line_metrics(profile_, [&](FuncId f) { return f == b; });
  ASSERT_EQ(m.lines.size(), 1u);
  EXPECT_EQ(m.lines[0].excl[kUser], 2 * kTick);
  for (const auto& p : m.pcs) EXPECT_EQ(p.func, b);
}

}  // namespace
}  // namespace erkit::model
