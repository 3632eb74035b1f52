#include "state.h"

#include <gtest/gtest.h>

#include "test_metrics.h"

namespace erkit::metricspec {
namespace {
using testing::make;

MetricState session() {
  return MetricState(make({"user", "wall", "system"}), "e.%user:i.%user:name", "e.user:name");
}

TEST(MetricState, Defaults) {
  auto s = session();
  EXPECT_EQ(s.functions().to_string(), "e.user:e%user:i.user:i%user:name");
  EXPECT_EQ(s.sort().to_string(), "e.user");
  EXPECT_EQ(s.callers_callees().to_string(), "a.user:a%user:e.user:e%user:i.user:i%user:name");
  EXPECT_EQ(s.csort().to_string(), "a.user");
}

TEST(MetricState, MetricsCommandConfirmsAndResetsSort) {
  auto s = session();
  auto o = s.set_metrics("i.user:i%user:e.user:e%user");
  ASSERT_TRUE(o.ok);
  EXPECT_EQ(o.lines.back(), "current: i.user:i%user:e.user:e%user:name");
  ASSERT_TRUE(s.set_sort("-i.user").ok);
  EXPECT_EQ(s.sort().to_string(), "-i.user");
  EXPECT_EQ(s.csort().to_string(), "-a.user");
  o = s.set_metrics("e.wall");
  EXPECT_EQ(o.lines.back(), "current: e.wall:name");
  EXPECT_EQ(s.sort().to_string(), "name");  // dsort e.user is not visible: next dsort entry
  EXPECT_EQ(s.callers_callees().to_string(), "a.wall:e.wall:name");
}

TEST(MetricState, ErrorsKeepPreviousSetting) {
  auto s = session();
  ASSERT_TRUE(s.set_metrics("e.wall:e.system").ok);
  auto o = s.set_metrics("e.wall:x.user");
  EXPECT_FALSE(o.ok);
  EXPECT_EQ(o.lines[0].rfind("Error: ", 0), 0u);
  EXPECT_EQ(s.functions().to_string(), "e.wall:e.system:name");
  o = s.set_sort("e.user");  // not visible
  EXPECT_FALSE(o.ok);
  EXPECT_EQ(s.sort().to_string(), "name");
}

TEST(MetricState, DefaultKeyword) {
  auto s = session();
  ASSERT_TRUE(s.set_metrics("e.wall").ok);
  auto o = s.set_metrics("default");
  EXPECT_EQ(o.lines.back(), "current: e.user:e%user:i.user:i%user:name");
  ASSERT_TRUE(s.set_sort("i.user").ok);
  o = s.set_sort(" default ");
  EXPECT_EQ(o.lines.back(), "current sort: e.user");
}

TEST(MetricState, WarningsForUnavailableMetrics) {
  auto s = session();
  auto o = s.set_metrics("e.user:e.sync");
  ASSERT_TRUE(o.ok);
  ASSERT_EQ(o.lines.size(), 2u);
  EXPECT_EQ(o.lines[0], "Warning: metric 'sync' is not recorded in the loaded experiments; ignored");
  EXPECT_EQ(o.lines[1], "current: e.user:name");
}

TEST(MetricState, CmetricsAndCsort) {
  auto s = session();
  auto o = s.set_cmetrics("i.user:i%user:a.user:a%user");
  EXPECT_EQ(o.lines.back(), "current: i.user:i%user:a.user:a%user:name");
  EXPECT_FALSE(s.set_csort("e.user").ok);
  EXPECT_TRUE(s.set_csort("a.user").ok);
  // Setting function metrics makes cmetrics follow again.
  s.set_metrics("e.system");
  EXPECT_EQ(s.callers_callees().to_string(), "a.system:e.system:name");
}

}  // namespace
}  // namespace erkit::metricspec
