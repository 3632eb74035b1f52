#include "views/stack_quality.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "folded_experiment.h"
#include "format/host_writer.h"

namespace erkit::views {
namespace {

// Unwind failures and truncated stacks are counted per clock sample (issue 15 item 9).
TEST(StackQuality, CountsFailedAndTruncatedStacks) {
  std::string dir = testing::temp_path("stackq");
  {
    format::HostExperimentWriter w(dir);
    ASSERT_TRUE(w.ok()) << w.error();
    w.log_line("0 start pid=1000 ppid=1 exe=\"synthetic\" clock_interval_ns=10000000");
    w.log_line("0 setting name=clock interval_ns=10000000");
    uint64_t good = w.stack({0x1000, 0x2000});
    uint64_t failed = w.stack({0x1000, format::kUnwindFailedPc});
    uint64_t cut = w.stack({0x1000, 0x2000, format::kTruncatedMarkerPc});
    uint64_t ids[] = {good, good, failed, cut, failed, good, good, good};
    uint64_t t = 0;
    for (uint64_t id : ids) {
      format::ClockSampleRecord r{};
      r.tid = 1000;
      r.tstamp_ns = t += 10000000;
      r.stack_id = id;
      r.cpu = 0;
      r.ns[format::kMsUser] = 10000000;
      w.clock_sample(r);
    }
    w.finish();
  }
  auto r = reader::open_experiment(dir);
  ASSERT_TRUE(r.experiment) << r.error;
  StackQuality q = stack_quality(*r.experiment);
  EXPECT_EQ(q.samples, 8u);
  EXPECT_EQ(q.unwind_failed, 2u);
  EXPECT_EQ(q.truncated, 1u);
  EXPECT_EQ(stack_quality_line(q), "Clock samples: 8; unwind failures: 2 (25.0 %); truncated stacks: 1 (12.5 %)\n");
  EXPECT_EQ(stack_quality_line(StackQuality{}), "");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace erkit::views
