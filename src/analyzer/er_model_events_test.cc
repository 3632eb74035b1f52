// The per-CPU timeline's events (er_model_events.cc, by_cpu).
#include <gtest/gtest.h>

#include "analyzer/er_model.h"
#include "synthetic_experiment.h"
#include "views/json.h"

namespace erkit::analyzer {
namespace {

// The per-CPU timeline (er_model_events.cc, by_cpu): one row per CPU the events ran on, in
// CPU order, every event with a CPU on its CPU's row.
class ErModelCpuTest : public erprint::testing::SessionFixture {};

TEST_F(ErModelCpuTest, PerCpuRowsCountTheEventsOfEachCpu) {
  erprint::testing::Synthetic s;
  s.clock = {"main;solve 7 cpu=3", "main;io 5 cpu=1", "main;solve;kernel 2 cpu=3"};
  add(s);
  ErModel m;
  std::string error;
  ASSERT_TRUE(m.load({path(0)}, &error)) << error;
  json::Value v;
  ASSERT_TRUE(json::parse(m.timeline_events(0, 0, 8, true), &v, &error)) << error;
  EXPECT_EQ(v["by"].as_string(), "cpu");
  EXPECT_TRUE(v["has_cpu"].as_bool());
  ASSERT_EQ(v["threads"].size(), 2u);
  EXPECT_EQ(v["threads"][0]["cpu"].as_int(), 1);
  EXPECT_EQ(v["threads"][0]["events"].as_int(), 5);
  EXPECT_EQ(v["threads"][1]["cpu"].as_int(), 3);
  EXPECT_EQ(v["threads"][1]["events"].as_int(), 9);
  EXPECT_EQ(v["threads"][1]["kinds"]["clock"]["count"].as_int(), 9);
  // Per thread the same events, and the page is told the CPU is there.
  ASSERT_TRUE(json::parse(m.timeline_events(0, 0, 8, false), &v, &error)) << error;
  EXPECT_EQ(v["by"].as_string(), "thread");
  EXPECT_TRUE(v["has_cpu"].as_bool());
  EXPECT_EQ(v["threads"][0]["events"].as_int(), 14);
}

}  // namespace
}  // namespace erkit::analyzer
