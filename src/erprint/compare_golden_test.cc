// Golden outputs of the function list in compare mode (issue 24): two experiments side by
// side, as differences and as ratios; `compare` with one experiment; bad modes.
#include <gtest/gtest.h>

#include "synthetic_experiment.h"

namespace erkit::erprint {
namespace {

class CompareReports : public testing::SessionFixture {
 protected:
  void SetUp() override {
    add_folded({"main;one 10", "main;two 10", "main 1"});
    add_folded({"main;one 10", "main;two 20", "main;three 4"});
    open();
  }
};

TEST_F(CompareReports, On) {
  EXPECT_EQ(run("metrics e.user:i.user\ncompare on\nfunctions"), R"(GOLDEN)");
}

TEST_F(CompareReports, Delta) {
  EXPECT_EQ(run("metrics e.%user\ncompare delta\nfunctions"), R"(GOLDEN)");
}

TEST_F(CompareReports, Ratio) {
  EXPECT_EQ(run("metrics e.user\ncompare ratio\nfunctions"), R"(GOLDEN)");
}

TEST_F(CompareReports, BadModeAndQuery) {
  run("compare sideways");
  EXPECT_FALSE(ok_);
  EXPECT_NE(last_error_.find("compare: unknown mode 'sideways' (expected on, off, delta or ratio)"),
            std::string::npos)
      << last_error_;
  EXPECT_EQ(run("compare"), "compare off\n");
  EXPECT_EQ(run("compare delta\ncompare"), "compare delta\ncompare delta\n");
}

class CompareOneSide : public testing::SessionFixture {};

TEST_F(CompareOneSide, OneExperimentIsNotCompared) {
  add_folded({"main;one 10"});
  open();
  std::string out = run("compare on\nfunctions");
  EXPECT_EQ(out.find("Compare:"), std::string::npos) << out;
  EXPECT_NE(out.find("Functions sorted by metric"), std::string::npos) << out;
}

}  // namespace
}  // namespace erkit::erprint
