#include "model/compare/compare_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "folded_experiment.h"
#include "model/experiment_set.h"

namespace erkit::model::compare {
namespace {

constexpr int64_t kTick = 10'000'000;  // a folded sample: 10 ms of user CPU

class CompareModelTest : public ::testing::Test {
 protected:
  // Adds one experiment (one run) to side `side`.
  void add(uint32_t side, const std::vector<std::string>& folded) {
    std::string dir = testing::temp_path("compare") + std::to_string(dirs_.size());
    dirs_.push_back(dir);
    ASSERT_EQ(testing::write_folded_experiment(dir, folded), "");
    auto r = reader::open_experiment(dir);
    ASSERT_TRUE(r.experiment) << r.error;
    profile_.add_experiment(std::move(*r.experiment));
    side_of_.push_back(side);
    run_of_.push_back(uint32_t(run_of_.size()));
  }
  void TearDown() override {
    for (const auto& d : dirs_) {
      std::filesystem::remove_all(d);
      std::filesystem::remove_all(d + ".src");
    }
  }
  Table table() { return build_function_table(profile_, {{'e', kUser}, {'i', kUser}}, side_of_, run_of_); }
  static const Row* row(const Table& t, const std::string& key) {
    for (const auto& r : t.rows)
      if (r.key == key) return &r;
    return nullptr;
  }
  std::vector<std::string> dirs_;
  std::vector<uint32_t> side_of_, run_of_;
  Profile profile_;
};

TEST_F(CompareModelTest, TwoExperimentsSideBySide) {
  add(0, {"main;one 10", "main;two 10", "main 1"});
  add(1, {"main;one 10", "main;two 20", "main;three 4"});
  Table t = table();
  ASSERT_EQ(t.sides, 2u);
  EXPECT_EQ(t.runs, (std::vector<uint32_t>{1, 1}));
  ASSERT_FALSE(t.rows.empty());
  EXPECT_EQ(t.rows[0].key, "<Total>");
  EXPECT_EQ(t.rows[0].cells[0][0].mean, 21 * kTick);
  EXPECT_EQ(t.rows[0].cells[0][1].mean, 34 * kTick);
  const Row* two = row(t, "two");
  ASSERT_TRUE(two);
  EXPECT_EQ(two->cells[0][0].mean, 10 * kTick);
  EXPECT_EQ(two->cells[0][1].mean, 20 * kTick);
  Change c = change(two->cells[0][0], two->cells[0][1]);
  EXPECT_EQ(c.delta, 10 * kTick);
  ASSERT_TRUE(c.ratio);
  EXPECT_EQ(*c.ratio, 2.0);
  EXPECT_FALSE(c.has_noise);  // one run per side: no spread to judge by
  // A function of one side only: zero on the other, no ratio against a zero base.
  const Row* three = row(t, "three");
  ASSERT_TRUE(three);
  EXPECT_EQ(three->cells[0][0].mean, 0);
  EXPECT_EQ(three->cells[1][1].mean, 4 * kTick);
  EXPECT_FALSE(change(three->cells[0][0], three->cells[0][1]).ratio);
  const Row* main = row(t, "main");
  ASSERT_TRUE(main);
  EXPECT_EQ(main->cells[0][0].mean, 1 * kTick);   // exclusive
  EXPECT_EQ(main->cells[1][0].mean, 21 * kTick);  // inclusive
  EXPECT_EQ(main->cells[1][1].mean, 34 * kTick);
}

TEST_F(CompareModelTest, GroupsGiveMeanSpreadAndNoise) {
  // Side 1: two = 10, 12, 8 (mean 10, sd 2); side 2: two = 20, 22, 18; one stays 10 +- 1.
  add(0, {"main;one 10", "main;two 10"});
  add(0, {"main;one 11", "main;two 12"});
  add(0, {"main;one 9", "main;two 8"});
  add(1, {"main;one 9", "main;two 20"});
  add(1, {"main;one 10", "main;two 22"});
  add(1, {"main;one 11", "main;two 18"});
  Table t = table();
  EXPECT_EQ(t.runs, (std::vector<uint32_t>{3, 3}));
  const Row* two = row(t, "two");
  ASSERT_TRUE(two);
  EXPECT_DOUBLE_EQ(two->cells[0][0].mean, 10.0 * kTick);
  EXPECT_DOUBLE_EQ(two->cells[0][0].sd, 2.0 * kTick);
  EXPECT_DOUBLE_EQ(two->cells[0][1].mean, 20.0 * kTick);
  Change c = change(two->cells[0][0], two->cells[0][1]);
  EXPECT_TRUE(c.has_noise);
  EXPECT_DOUBLE_EQ(c.noise, 2 * std::sqrt(4.0 / 3 + 4.0 / 3) * kTick);
  EXPECT_TRUE(c.significant);
  const Row* one = row(t, "one");
  ASSERT_TRUE(one);
  Change o = change(one->cells[0][0], one->cells[0][1]);
  EXPECT_DOUBLE_EQ(o.delta, 0);
  EXPECT_FALSE(o.significant);
}

TEST_F(CompareModelTest, DescendantsOfARunAreSummed) {
  add(0, {"main;one 10"});
  add(1, {"main;one 10"});
  add(1, {"child;one 5"});
  run_of_[2] = run_of_[1];  // a descendant of the second side's run
  Table t = table();
  EXPECT_EQ(t.runs, (std::vector<uint32_t>{1, 1}));
  const Row* one = row(t, "one");
  ASSERT_TRUE(one);
  EXPECT_EQ(one->cells[0][1].mean, 15 * kTick);
  EXPECT_EQ(one->cells[0][1].sd, 0);
}

// The loader tells which experiments are runs and which are descendants of one (founders):
// a group of two experiments, the second with a descendant, loaded with descendants.
TEST(ExperimentSetFounders, DescendantsBelongToTheirRun) {
  const std::string dir = testing::temp_path("founders");
  std::filesystem::create_directories(dir);
  ASSERT_EQ(testing::write_folded_experiment(dir + "/a.er", {"main;one 1"}), "");
  ASSERT_EQ(testing::write_folded_experiment(dir + "/b.er", {"main;one 2"}), "");
  ASSERT_EQ(testing::write_folded_experiment(dir + "/b.er/_f1.er", {"main;one 3"}), "");
  std::ofstream(dir + "/g.erg") << "#analyzer experiment group\na.er\nb.er\n";
  Profile p;
  LoadedSet set;
  LoadOptions o;
  o.descendants = true;
  std::string error;
  ASSERT_TRUE(load_experiment_set(p, dir + "/g.erg", o, &set, &error)) << error;
  ASSERT_EQ(set.paths.size(), 3u);
  EXPECT_EQ(set.founders, (std::vector<uint32_t>{0, 1, 1}));
  std::filesystem::remove_all(dir);
}

TEST(CompareMode, Parse) {
  EXPECT_EQ(parse_mode("delta"), Mode::Delta);
  EXPECT_EQ(parse_mode("ratio"), Mode::Ratio);
  EXPECT_EQ(parse_mode("on"), Mode::On);
  EXPECT_EQ(parse_mode("off"), Mode::Off);
  EXPECT_FALSE(parse_mode("sideways"));
  EXPECT_STREQ(mode_name(Mode::Ratio), "ratio");
}

}  // namespace
}  // namespace erkit::model::compare
