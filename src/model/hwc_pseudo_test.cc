// Hardware-counter records without a call stack in the model (no PMU here: synthesized
// records): lost overflows, final counts and an aborted counter go to the manual's
// pseudo-functions, under the counter's metric, and count in <Total>.
#include "model/hwc_pseudo.h"

#include <gtest/gtest.h>

#include "model/profile.h"

namespace erkit::model {
namespace {

format::HwcEventRecord rec(uint64_t stack, uint32_t flags, uint64_t value) {
  format::HwcEventRecord r{};
  r.tid = 5;
  r.tstamp_ns = 1000;
  r.stack_id = stack;
  r.counter = 0;
  r.flags = flags;
  r.value = value;
  r.cpu = -1;
  return r;
}

TEST(HwcPseudo, RecordsWithoutAStackGoToTheManualsPseudoFunctions) {
  reader::Experiment e;
  e.log.hwc_counters.push_back({{"name", "insts"}, {"dataspace", "0"}});
  e.stacks[0x77] = {0x1234};  // a PC in no load object: <Unknown>
  e.hwc.push_back(rec(0x77, 0, 1000000));
  e.hwc.push_back(rec(format::kNoStackId, format::kHwcFlagLost, 3000));
  e.hwc.push_back(rec(format::kNoStackId, format::kHwcFlagFinal, 420));
  e.hwc.push_back(rec(format::kNoStackId, format::kHwcFlagFinal, 80));
  e.hwc.push_back(rec(format::kNoStackId, format::kHwcFlagAbort, 7));
  e.hwc.push_back(rec(format::kNoStackId, 0, 99));  // no stack, no flag: not attributed
  Profile p;
  p.add_experiment(std::move(e));
  const uint32_t m = metric_index("insts");
  ASSERT_LT(m, kMetricCount);
  const auto& fm = p.function_metrics();
  auto excl = [&](const std::string& name) -> int64_t {
    for (FuncId f = 0; f < p.functions().size(); ++f)
      if (p.functions().at(f).name == name) return fm.excl[f][m];
    ADD_FAILURE() << "no function " << name;
    return -1;
  };
  EXPECT_EQ(excl("collector_lost_hwc_overflow"), 3000);
  EXPECT_EQ(excl("collector_final_counters"), 500);
  EXPECT_EQ(excl("collector_hwc_ABORT"), 7);
  EXPECT_EQ(excl("<Unknown>"), 1000000);
  EXPECT_EQ(p.totals()[m], 1000000 + 3000 + 500 + 7);
}

TEST(HwcPseudo, FlagsPickTheStack) {
  EXPECT_EQ(hwc_pseudo_stack(0), format::kNoStackId);
  EXPECT_STREQ(hwc_pseudo_function(hwc_pseudo_stack(format::kHwcFlagFinal)), "collector_final_counters");
  EXPECT_STREQ(hwc_pseudo_function(hwc_pseudo_stack(format::kHwcFlagLost)), "collector_lost_hwc_overflow");
  EXPECT_STREQ(hwc_pseudo_function(hwc_pseudo_stack(format::kHwcFlagAbort)), "collector_hwc_ABORT");
  EXPECT_EQ(hwc_pseudo_function(0x1234), nullptr);
}

}  // namespace
}  // namespace erkit::model
