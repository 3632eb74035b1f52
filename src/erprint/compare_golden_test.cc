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
  // The output with the experiments' temporary paths written as <exp1>, <exp2>.
  std::string out(const std::string& cmds) {
    std::string o = run(cmds);
    for (size_t i = 0; i < dirs_.size(); ++i) {
      const std::string tag = "<exp" + std::to_string(i + 1) + ">";
      for (size_t at = o.find(path(i)); at != std::string::npos; at = o.find(path(i))) o.replace(at, path(i).size(), tag);
    }
    return o;
  }
};

TEST_F(CompareReports, On) {
  EXPECT_EQ(out("metrics e.user:i.user\ncompare on\nfunctions"), R"(current: e.user:i.user:name
compare on
Compare: on (each side's values); functions matched by name (and source file where a name repeats)
  [1] <exp1>
  [2] <exp2>
Functions sorted by metric: Exclusive User CPU Time (largest of the sides)

Excl.     Excl.     Incl.     Incl.      Name
User CPU  User CPU  User CPU  User CPU
[1] sec.  [2] sec.  [1] sec.  [2] sec.
   0.210     0.340     0.210     0.340   <Total>
   0.100     0.200     0.100     0.200   two
   0.100     0.100     0.100     0.100   one
      0.     0.040        0.     0.040   three
   0.010        0.     0.210     0.340   main
)");
}

TEST_F(CompareReports, Delta) {
  // A percentage column is the same column as its value: one column per side.
  EXPECT_EQ(out("metrics e.%user\ncompare delta\nfunctions"), R"(current: e.user:e%user:name
compare delta
Compare: delta (each side minus [1]); functions matched by name (and source file where a name repeats)
  [1] <exp1>
  [2] <exp2>
Functions sorted by metric: Exclusive User CPU Time (largest of the sides)

Excl.     Excl.       Name
User CPU  User CPU
[1] sec.  [2] delta
   0.210     +0.130   <Total>
   0.100     +0.100   two
   0.100         0.   one
      0.     +0.040   three
   0.010     -0.010   main
)");
}

TEST_F(CompareReports, Ratio) {
  EXPECT_EQ(out("metrics e.user\ncompare ratio\nfunctions"), R"(current: e.user:name
compare ratio
Compare: ratio (each side divided by [1]); functions matched by name (and source file where a name repeats)
  [1] <exp1>
  [2] <exp2>
Functions sorted by metric: Exclusive User CPU Time (largest of the sides)

Excl.     Excl.       Name
User CPU  User CPU
[1] sec.  [2] ratio
   0.210      1.619   <Total>
   0.100      2.000   two
   0.100      1.000   one
      0.        new   three
   0.010         0.   main
)");
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
