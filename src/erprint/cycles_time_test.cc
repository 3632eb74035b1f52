// Cycle-type counters shown as time (issue 19, seed-spec §2.2 "metric conversion", §7.2 '.'
// and '+'): a synthesized collect -h experiment (no PMU here) whose log records the CPU clock
// rate. Each cycles overflow stands for 2.4e9 or 1.2e9 cycles at 2.4 GHz: exactly 1 s or 0.5 s.
#include <gtest/gtest.h>

#include "synthetic_experiment.h"

namespace erkit::erprint {
namespace {

class CyclesTime : public testing::SessionFixture {
 protected:
  void with_rate(uint64_t khz) {
    testing::Synthetic s;
    s.hwc = {"main;spin 3 counter=cycles value=2400000000", "main;rest 1 counter=cycles value=1200000000",
             "main;spin 2 counter=insts value=5000"};
    s.cpu_khz = khz;
    add(s);
    open();
  }
};

TEST_F(CyclesTime, DefaultMetricsShowCyclesAsTimeAndOtherCountersAsCounts) {
  with_rate(2'400'000);
  // The synthetic experiment also claims clock profiling: the default list's hwc part alone.
  run("dmetrics e.%hwc:i.%hwc:name");
  EXPECT_EQ(run("metrics default"),
            "current: e.cycles:e%cycles:e+insts:e%insts:i.cycles:i%cycles:i+insts:i%insts:name\n");
  EXPECT_EQ(run("limit 3\nfunctions"), R"(current limit: 3
Functions sorted by metric: Exclusive CPU Cycles

Excl.       Excl.       Excl.         Excl.         Incl.       Incl.       Incl.         Incl.          Name
CPU Cycles  CPU Cycles  Instructions  Instructions  CPU Cycles  CPU Cycles  Instructions  Instructions
sec.        %                         %             sec.        %                         %
     3.500      100.00         10000        100.00       3.500      100.00         10000        100.00   <Total>
     3.000       85.71         10000        100.00       3.000       85.71         10000        100.00   spin
     0.500       14.29             0            0.       0.500       14.29             0            0.   rest
)");
}

TEST_F(CyclesTime, PlusShowsTheCountAndBothCanBeShown) {
  with_rate(2'400'000);
  // One column group: '.' first, as the manual orders visibilities.
  EXPECT_EQ(run("metrics e+cycles:e.cycles\nlimit 2\nfunctions"), R"(current: e.cycles:e+cycles:name
current limit: 2
Functions sorted by metric: Exclusive CPU Cycles

Excl.       Excl.        Name
CPU Cycles  CPU Cycles
sec.
     3.500  8400000000   <Total>
     3.000  7200000000   spin
)");
}

TEST_F(CyclesTime, JsonColumnsNameTheCounterWithItsUnit) {
  with_rate(2'400'000);
  run("outformat json");
  const std::string out = run("metrics e.cycles:e+cycles\nlimit 1\nfunctions");
  EXPECT_NE(out.find(R"({"flavor":"exclusive","metric":"cycles","title":"CPU Cycles","unit":"ns"})"), std::string::npos)
      << out;
  EXPECT_NE(out.find(R"({"flavor":"exclusive","metric":"cycles","title":"CPU Cycles","unit":"count"})"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find(R"("values":[3500000000,8400000000])"), std::string::npos) << out;
}

TEST_F(CyclesTime, WithoutARecordedRateCyclesStayCounts) {
  with_rate(0);  // an experiment of an older erkit, or a machine that shows no rate
  EXPECT_EQ(run("metrics e.cycles\nlimit 2\nfunctions"), R"(current: e.cycles:name
current limit: 2
Functions sorted by metric: Exclusive CPU Cycles

Excl.        Name
CPU Cycles

8400000000   <Total>
7200000000   spin
)");
}

}  // namespace
}  // namespace erkit::erprint

namespace erkit::erprint {
namespace {

TEST_F(CyclesTime, HeaderShowsTheRecordedRate) {
  with_rate(2'400'000);
  const std::string out = run("header 1");
  EXPECT_NE(out.find("  Hardware: 4 CPUs at 2400 MHz, page size 4096\n"), std::string::npos) << out;
}

}  // namespace
}  // namespace erkit::erprint
