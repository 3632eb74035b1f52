// Raw counters' metrics (issue 19): their names from the event's name, a slot of the catalog
// each, and function metrics from synthesized counter records like a named counter's; the
// collector_hwc_ABORT warning on loading.
#include "model/raw_counter_metrics.h"

#include <gtest/gtest.h>

#include "model/hwc_abort.h"
#include "model/metric_defs.h"
#include "model/profile.h"

namespace erkit::model {
namespace {

TEST(RawCounterMetrics, NamesFromTheEventsName) {
  EXPECT_EQ(raw_counter_metric_name("INST_RETIRED:ANY_P"), "INST_RETIRED.ANY_P");
  EXPECT_EQ(raw_counter_metric_name("skl::L1D:REPLACEMENT"), "L1D.REPLACEMENT");  // PMU prefix dropped
  EXPECT_EQ(raw_counter_metric_name("perf::PERF_COUNT_SW_PAGE_FAULTS"), "PERF_COUNT_SW_PAGE_FAULTS");
  EXPECT_EQ(raw_counter_metric_name("mem_load_retired.l1_miss"), "mem_load_retired.l1_miss");
  EXPECT_EQ(raw_counter_metric_name("r1c2"), "r1c2");
  EXPECT_EQ(raw_counter_metric_name("software/config=2/"), "software_config_2");
  EXPECT_EQ(raw_counter_metric_name("cpu/event=0x3c,umask=0/"), "cpu_event_0x3c_umask_0");
  EXPECT_EQ(raw_counter_metric_name("cpu/mem-loads"), "cpu_mem-loads");
  EXPECT_EQ(raw_counter_metric_name("//"), "raw");
  // Never a built-in metric's name.
  EXPECT_EQ(raw_counter_metric_name("perf::cycles"), "raw_cycles");
  EXPECT_EQ(raw_counter_metric_name("x::user"), "raw_user");
}

TEST(RawCounterMetrics, OneSlotPerNameNamedOnce) {
  const bool fresh = metric_index("EVENT_A.X") == kMetricCount;
  const uint64_t g = raw_counter_generation();
  const uint32_t a = hwc_counter_metric("test_raw::EVENT_A:X");
  ASSERT_GE(a, uint32_t(kRawCounterFirst));
  ASSERT_LE(a, uint32_t(kRawCounterLast));
  EXPECT_EQ(raw_counter_generation(), g + (fresh ? 1 : 0));
  EXPECT_EQ(metric_def(a).name, "EVENT_A.X");
  EXPECT_EQ(metric_def(a).display, "EVENT_A.X Events");
  EXPECT_EQ(metric_def(a).unit, MetricUnit::Count);
  EXPECT_EQ(metric_def(a).source, MetricSource::Hwc);
  EXPECT_TRUE(metric_def(a).raw);
  // The same event (or spelling of the same name) again: the same slot, nothing renamed.
  EXPECT_EQ(hwc_counter_metric("test_raw::EVENT_A:X"), a);
  EXPECT_EQ(hwc_counter_metric("EVENT_A.X"), a);
  EXPECT_EQ(raw_counter_generation(), g + (fresh ? 1 : 0));
  EXPECT_EQ(metric_index("EVENT_A.X"), a);  // er_print's lists find it by name
  // Named counters keep their own metric.
  EXPECT_EQ(hwc_counter_metric("page-faults"), metric_index("page-faults"));
  EXPECT_EQ(hwc_counter_metric("cycles"), metric_index("cycles"));
  EXPECT_EQ(hwc_counter_metric(""), uint32_t(kMetricCount));
  EXPECT_EQ(metric_index(""), uint32_t(kMetricCount));  // an unnamed slot is no metric
}

format::HwcEventRecord rec(uint32_t counter, uint64_t stack, uint32_t flags, uint64_t value) {
  format::HwcEventRecord r{};
  r.tid = 9;
  r.tstamp_ns = 1000;
  r.stack_id = stack;
  r.counter = counter;
  r.flags = flags;
  r.value = value;
  r.cpu = -1;
  return r;
}

TEST(RawCounterMetrics, RecordsOfARawCounterAreItsFunctionMetric) {
  reader::Experiment e;
  e.path = "raw.er";
  e.log.hwc_counters.push_back({{"name", "page-faults"}});
  e.log.hwc_counters.push_back({{"name", "test_raw2::PAGE_FAULTS"}});
  e.stacks[0x77] = {0x1234};
  e.hwc.push_back(rec(0, 0x77, 0, 5));
  e.hwc.push_back(rec(1, 0x77, 0, 5));
  e.hwc.push_back(rec(1, 0x77, 0, 6));
  e.hwc.push_back(rec(1, format::kNoStackId, format::kHwcFlagFinal, 2));
  e.hwc.push_back(rec(1, format::kNoStackId, format::kHwcFlagAbort, 0));
  e.hwc.push_back(rec(1, format::kNoStackId, format::kHwcFlagAbort, 0));
  e.log.warnings.push_back({5, "hardware counter 1 (the log's hwc index=1) could not be opened for thread 9: "
                               "Too many open files (errno 24); its counts are lost from then on (collector_hwc_ABORT)"});
  EXPECT_EQ(hwc_abort_warning(e),
            "raw.er: hardware-counter collection aborted for 1 counter of 1 thread (collector_hwc_ABORT); their "
            "counts after that are missing: hardware counter 1 (the log's hwc index=1) could not be opened for "
            "thread 9: Too many open files (errno 24); its counts are lost from then on (collector_hwc_ABORT)");
  Profile p;
  p.add_experiment(std::move(e));
  const uint32_t raw = metric_index("PAGE_FAULTS");
  const uint32_t named = metric_index("page-faults");
  ASSERT_LT(raw, uint32_t(kMetricCount));
  const auto avail = p.available_metrics();
  EXPECT_NE(std::find(avail.begin(), avail.end(), raw), avail.end());
  EXPECT_NE(std::find(avail.begin(), avail.end(), named), avail.end());
  EXPECT_EQ(p.totals()[raw], 5 + 6 + 2);
  EXPECT_EQ(p.totals()[named], 5);
  const auto& fm = p.function_metrics();
  bool final_seen = false;
  for (FuncId f = 0; f < p.functions().size(); ++f) {
    if (p.functions().at(f).name != "collector_final_counters") continue;
    EXPECT_EQ(fm.excl[f][raw], 2);
    final_seen = true;
  }
  EXPECT_TRUE(final_seen);
}

TEST(RawCounterMetrics, NoAbortNoWarning) {
  reader::Experiment e;
  e.hwc.push_back(rec(0, 0x77, 0, 5));
  EXPECT_EQ(hwc_abort_warning(e), "");
}

}  // namespace
}  // namespace erkit::model
