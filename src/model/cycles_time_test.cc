// Cycle-type counters as time (issue 19): the conversion at the experiment's recorded CPU
// clock rate, per experiment, and the time forms' place in the catalog.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "model/metric_defs.h"
#include "model/profile.h"

namespace erkit::model {
namespace {

TEST(CyclesTime, ConversionIsExactToTheNanosecond) {
  EXPECT_EQ(cycles_to_ns(2'400'000'000, 2'400'000), 1'000'000'000);  // 2.4e9 cycles at 2.4 GHz
  EXPECT_EQ(cycles_to_ns(3, 2'000'000), 2);                           // 1.5 ns rounds to 2
  EXPECT_EQ(cycles_to_ns(1, 3'000'000), 0);                           // 0.33 ns
  EXPECT_EQ(cycles_to_ns(-2'300, 2'300'000), -1'000);
  EXPECT_EQ(cycles_to_ns(12345, 0), 0);  // no rate
  // An hour of a 5 GHz CPU (1.8e13 cycles) does not overflow: 3.6e12 ns.
  EXPECT_EQ(cycles_to_ns(18'000'000'000'000, 5'000'000), 3'600'000'000'000);
  // 4.6e18 cycles at 1 GHz: 4.6e18 ns, still exact.
  EXPECT_EQ(cycles_to_ns(INT64_MAX / 2, 1'000'000), INT64_MAX / 2);
}

TEST(CyclesTime, EveryCycleTypeCounterHasATimeForm) {
  for (const char* n : {"cycles", "festalls", "bestalls", "refcycles"}) {
    const uint32_t c = metric_index(n);
    ASSERT_LT(c, kMetricCount) << n;
    EXPECT_EQ(metric_def(c).unit, MetricUnit::Count) << n;  // the name finds the counter
    const uint32_t t = cycles_time_metric(c);
    ASSERT_LT(t, kMetricCount) << n;
    EXPECT_TRUE(metric_def(t).cycles_time);
    EXPECT_EQ(metric_def(t).unit, MetricUnit::Nanoseconds);
    EXPECT_EQ(metric_def(t).name, n);
    EXPECT_EQ(cycles_counter_metric(t), c);
  }
  for (const char* n : {"insts", "buscycles", "page-faults", "user"})
    EXPECT_EQ(cycles_time_metric(metric_index(n)), kMetricCount) << n;
  EXPECT_EQ(metric_defs().size(), size_t(kMetricCount));
}

format::HwcEventRecord rec(uint32_t counter, uint64_t value) {
  format::HwcEventRecord r{};
  r.tid = 5;
  r.tstamp_ns = 1000;
  r.stack_id = 0x77;
  r.counter = counter;
  r.value = value;
  r.cpu = -1;
  return r;
}

TEST(CyclesTime, EachExperimentAtItsOwnRate) {
  Profile p;
  for (uint64_t khz : {uint64_t(2'000'000), uint64_t(4'000'000), uint64_t(0)}) {
    reader::Experiment e;
    e.log.cpu_khz = khz;
    e.log.hwc_counters.push_back({{"name", "cycles"}});
    e.log.hwc_counters.push_back({{"name", "insts"}});
    e.stacks[0x77] = {0x1234};
    e.hwc.push_back(rec(0, 4'000'000'000));  // 2 s at 2 GHz, 1 s at 4 GHz, no time without a rate
    e.hwc.push_back(rec(1, 10));
    p.add_experiment(std::move(e));
  }
  const uint32_t t = cycles_time_metric(metric_index("cycles"));
  EXPECT_EQ(p.totals()[t], 3'000'000'000);
  EXPECT_EQ(p.totals()[metric_index("cycles")], 12'000'000'000);
  const auto avail = p.available_metrics();
  EXPECT_NE(std::find(avail.begin(), avail.end(), t), avail.end());
}

TEST(CyclesTime, NoRateNoTimeForm) {
  Profile p;
  reader::Experiment e;
  e.log.hwc_counters.push_back({{"name", "cycles"}});
  e.stacks[0x77] = {0x1234};
  e.hwc.push_back(rec(0, 1000));
  p.add_experiment(std::move(e));
  const uint32_t t = cycles_time_metric(metric_index("cycles"));
  const auto avail = p.available_metrics();
  EXPECT_EQ(std::find(avail.begin(), avail.end(), t), avail.end());
  EXPECT_NE(std::find(avail.begin(), avail.end(), metric_index("cycles")), avail.end());
  EXPECT_EQ(p.totals()[t], 0);
}

}  // namespace
}  // namespace erkit::model
