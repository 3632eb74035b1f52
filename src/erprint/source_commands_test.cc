// source and disasm share the line and PC metrics of every function, kept in the session while
// the model's aggregates stay the same (source_commands.cc, annotation_metrics): a setting
// that changes the aggregates (a thread selection, a filter) must show in the next report
// exactly as in a session that had the setting from the start.
#include <gtest/gtest.h>

#include "synthetic_experiment.h"

namespace erkit::erprint {
namespace {

class SourceCommands : public testing::SessionFixture {
 protected:
  void SetUp() override {
    testing::Synthetic s;
    s.debug = true;
    // Thread 1 (the process) first, then thread 2 with three times the samples.
    s.clock = {"main;solve;kernel 10", "main;solve;kernel 30 tid=1001", "main;solve 5 tid=1001"};
    add(s);
    open();
  }
};

TEST_F(SourceCommands, KeptLineMetricsFollowTheSelectionAndTheFilter) {
  for (const char* report : {"source kernel", "disasm kernel"}) {
    const std::string all = run(report);
    ASSERT_NE(all.find("##"), std::string::npos) << report << ":\n" << all << last_error_;
    run("thread_select 2");
    const std::string second = run(report);
    run("thread_select all");
    EXPECT_EQ(run(report), all) << report;
    run("filters THRID == 1");
    const std::string first = run(report);
    open();  // a new session with the setting from the start
    run("thread_select 2");
    EXPECT_EQ(second, run(report)) << report;
    EXPECT_NE(second, all) << report;
    open();
    run("filters THRID == 1");
    EXPECT_EQ(first, run(report)) << report;
    EXPECT_NE(first, second) << report;
    open();
  }
}

}  // namespace
}  // namespace erkit::erprint
