// Golden outputs of the function-list and callers-callees commands on a synthetic
// experiment: the manual's worked example (seed-spec §6.1), 10 ms per unit.
#include <gtest/gtest.h>

#include "synthetic_experiment.h"

namespace erkit::erprint {
namespace {

class FunctionCommands : public testing::SessionFixture {
 protected:
  void SetUp() override {
    add_folded({"main 2", "main;A;C 2", "main;A;C;E 4", "main;A;C;F 4", "main;B 5", "main;B;C 3", "main;B;C;E 6",
                "main;B;C;F 6"});
    open();
  }
};

TEST_F(FunctionCommands, Functions) {
  EXPECT_EQ(run("functions"), R"(Functions sorted by metric: Exclusive User CPU Time

Excl.     Excl.     Incl.     Incl.      Name
User CPU  User CPU  User CPU  User CPU
sec.      %         sec.      %
   0.320    100.00     0.320    100.00   <Total>
   0.100     31.25     0.100     31.25   E
   0.100     31.25     0.100     31.25   F
   0.050     15.62     0.200     62.50   B
   0.050     15.62     0.250     78.12   C
   0.020      6.25     0.320    100.00   main
      0.        0.     0.100     31.25   A
)");
}

TEST_F(FunctionCommands, MetricsConfirmAndSortFollows) {
  // A new list resets the sort to the first dsort entry it shows (e.user here).
  EXPECT_EQ(run("metrics i.%user:e.user\nsort"), "current: i.user:i%user:e.user:name\ncurrent sort: e.user\n");
  EXPECT_EQ(run("sort i.user\nfunctions"), R"(current sort: i.user
Functions sorted by metric: Inclusive User CPU Time

Incl.     Incl.     Excl.      Name
User CPU  User CPU  User CPU
sec.      %         sec.
   0.320    100.00     0.320   <Total>
   0.320    100.00     0.020   main
   0.250     78.12     0.050   C
   0.200     62.50     0.050   B
   0.100     31.25        0.   A
   0.100     31.25     0.100   E
   0.100     31.25     0.100   F
)");
  // Flavor letters expand first; visibility order is irrelevant (seed-spec §7.2).
  EXPECT_EQ(run("metrics ie.%user"), "current: i.user:i%user:e.user:e%user:name\n");
  EXPECT_EQ(run("metrics i%.user"), "current: i.user:i%user:name\n");
  // Duplicates count once, at the first position.
  EXPECT_EQ(run("metrics e.user:i.user:e%user"), "current: e.user:e%user:i.user:name\n");
}

TEST_F(FunctionCommands, MetricErrorsKeepThePreviousSetting) {
  run("metrics e.user");
  EXPECT_EQ(run("metrics e.nosuch"), "");
  EXPECT_FALSE(ok_);
  EXPECT_NE(last_error_.find("unknown metric 'nosuch'"), std::string::npos) << last_error_;
  EXPECT_EQ(run("metrics a.user"), "");
  EXPECT_NE(last_error_.find("only valid for callers-callees"), std::string::npos) << last_error_;
  EXPECT_EQ(run("metrics"), "current: e.user:name\n");
  EXPECT_EQ(run("metrics default"), "current: e.user:e%user:i.user:i%user:name\n");
}

TEST_F(FunctionCommands, SortReverseAndByName) {
  run("metrics e.user");
  EXPECT_EQ(run("sort -e.user\nfunctions"), R"(current sort: -e.user
Functions sorted by metric: (reverse) Exclusive User CPU Time

Excl.      Name
User CPU
sec.
   0.320   <Total>
      0.   A
   0.020   main
   0.050   B
   0.050   C
   0.100   E
   0.100   F
)");
  EXPECT_EQ(run("sort name\nlimit 3\nfunctions"), R"(current sort: name
current limit: 3
Functions sorted by metric: Name

Excl.      Name
User CPU
sec.
   0.320   <Total>
      0.   A
   0.050   B
)");
  // Sorting by a metric that is not visible is refused unless '!' says so.
  EXPECT_EQ(run("sort i.user"), "");
  EXPECT_NE(last_error_.find("no visible metric"), std::string::npos) << last_error_;
  EXPECT_EQ(run("sort i!user"), "current sort: i.user\n");
}

TEST_F(FunctionCommands, CallersCalleesPanel) {
  EXPECT_EQ(run("csingle C"), R"(Callers and callees sorted by metric: Attributed User CPU Time

Attr.     Attr.     Excl.     Excl.     Incl.     Incl.      Name
User CPU  User CPU  User CPU  User CPU  User CPU  User CPU
sec.      %         sec.      %         sec.      %
   0.150     60.00     0.050     15.62     0.200     62.50   B
   0.100     40.00        0.        0.     0.100     31.25   A
   0.050     20.00     0.050     15.62     0.250     78.12  *C
   0.100     40.00     0.100     31.25     0.100     31.25   E
   0.100     40.00     0.100     31.25     0.100     31.25   F
)");
  // The gprof-like report of the manual (seed-spec §7.20) with a.user and a%user only.
  EXPECT_EQ(run("cmetrics a.user:a%user\ncsort a.user\nlimit 2\ncallers-callees"),
            R"(current: a.user:a%user:name
current sort: a.user
current limit: 2
Functions sorted by metric: Exclusive User CPU Time
Callers and callees sorted by metric: Attributed User CPU Time

Attr.     Attr.      Name
User CPU  User CPU
sec.      %
      0.        0.  *<Total>
   0.320    100.00   main

Attr.     Attr.      Name
User CPU  User CPU
sec.      %
   0.100    100.00   C
   0.100    100.00  *E
)");
}

TEST_F(FunctionCommands, CmetricsFollowMetricsWithAttributedInserted) {
  EXPECT_EQ(run("metrics i.user:e%user\ncmetrics"), "current: i.user:e%user:name\ncurrent: a.user:a%user:i.user:e%user:name\n");
  EXPECT_EQ(run("csort"), "current sort: a.user\n");
  EXPECT_EQ(run("csort e.user"), "");
  EXPECT_NE(last_error_.find("csort needs an attributed"), std::string::npos) << last_error_;
}

TEST_F(FunctionCommands, SummaryPanel) {
  std::string out = run("metrics e.user\nfsingle B");
  EXPECT_NE(out.find(R"(B
          Exclusive User CPU Time:  0.050 ( 15.6%)
          Inclusive User CPU Time:  0.200 ( 62.5%)
         Exclusive Total LWP Time:  0.050 ( 15.6%)
         Inclusive Total LWP Time:  0.200 ( 62.5%)
        Exclusive Wall Clock Time:  0.050 ( 15.6%)
        Inclusive Wall Clock Time:  0.200 ( 62.5%)
                             Size:  21
)"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("System CPU"), std::string::npos) << "metrics without data are left out\n" << out;
  EXPECT_NE(out.find("Load Object:  " + path(0) + ".src/libsynth.so"), std::string::npos) << out;
  EXPECT_EQ(run("fsingle nosuch"), "");
  EXPECT_NE(last_error_.find("no function named 'nosuch'"), std::string::npos);
  // fsummary follows the list order and the limit.
  std::string all = run("limit 2\nfsummary");
  EXPECT_EQ(all.rfind("current limit: 2\n<Total>\n", 0), 0u) << all;
  EXPECT_NE(all.find("\nE\n"), std::string::npos) << all;
  EXPECT_EQ(all.find("\nF\n"), std::string::npos) << all;
}

TEST_F(FunctionCommands, CallTree) {
  // No dsort entry is visible in this list: the sort is by its first visible metric.
  EXPECT_EQ(run("metrics i.user\nsort"), "current: i.user:name\ncurrent sort: i.user\n");
  EXPECT_EQ(run("sort i.user\ncalltree"), R"(current sort: i.user
Functions Call Tree. Sorted by metric: Inclusive User CPU Time

Incl.      Name
User CPU
sec.
   0.320   +-<Total>
   0.320     +-main
   0.200       +-B
   0.150         +-C
   0.060           +-E
   0.060           +-F
   0.100       +-A
   0.100         +-C
   0.040           +-E
   0.040           +-F
)");
}

}  // namespace
}  // namespace erkit::erprint
