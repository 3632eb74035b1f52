// End-to-end: every experiment says what recording cost the process (the exit line's cost_*
// fields, er_print -header), and those figures agree with what was recorded and with the
// kernel's CPU accounting.
#include <fmt/format.h>

#include "collect_fixture.h"

namespace erkit::e2e {
namespace {

class CollectCost : public CollectTest {};

TEST_F(CollectCost, TheExitLineSaysWhatRecordingCost) {
  auto c = collect("-p hi " + program("work_ratio") + " 100000000 truth.txt");
  ASSERT_EQ(c.status, 0) << c.err;
  auto e = open("test.1.er");
  ASSERT_TRUE(e);
  const auto& cost = e->log.cost;
  ASSERT_TRUE(cost.known) << read("test.1.er/log");
  // One handled signal per CPU record of the clock profile, but for the exit tail (a record
  // without a signal) and a signal that found no new CPU time (no record). The microstate
  // sampler's records (waits, sleeps) carry no CPU time.
  size_t cpu_records = 0;
  for (const auto& r : e->clock) cpu_records += r.ns[format::kMsUser] + r.ns[format::kMsSystem] > 0;
  EXPECT_NEAR(double(cost.signals), double(cpu_records), 3.0) << e->clock.size() << " records";
  ASSERT_GT(cost.signals, 20u);
  // The handler's time is real and small: a few microseconds per signal, not zero.
  EXPECT_GT(cost.signal_ns, cost.signals * 100) << cost.signal_ns;
  EXPECT_LT(cost.signal_ns, cost.signals * 200000) << cost.signal_ns;
  EXPECT_GT(cost.helper_cpu_ns, 0u) << "the microstate sampler thread ran";
  EXPECT_GT(cost.start_cpu_ns, 0u);
  EXPECT_GT(cost.exit_cpu_ns, 0u);
  // The Java keys (format/java_cost_keys.h) only in a JVM with the Java agent.
  EXPECT_EQ(read("test.1.er/log").find("cost_java_"), std::string::npos);
  // The process's CPU time covers what the program measured for its own calls, plus little.
  auto t = read_seconds_by_name(path("truth.txt"));
  ASSERT_TRUE(t.count("one") && t.count("two"));
  double calls = t["one"] + t["two"], process = double(cost.process_cpu_ns) / 1e9;
  EXPECT_GE(process, calls);
  EXPECT_LT(process, calls * 1.2 + 0.05);
  // Well under the 3 % at -p hi; 5 % leaves room for a loaded machine.
  EXPECT_LT(double(cost.total_ns()), 0.05 * double(cost.process_cpu_ns));
  auto h = er_print("-header test.1.er");
  ASSERT_EQ(h.status, 0) << h.err;
  EXPECT_NE(h.out.find("Collector overhead: "), std::string::npos) << h.out;
  EXPECT_NE(h.out.find(fmt::format("({} signals,", cost.signals)), std::string::npos) << h.out;
}

TEST_F(CollectCost, WithoutClockProfilingNoSignalIsHandled) {
  auto c = collect("-p off -S off " + program("work_ratio") + " 10000000");
  ASSERT_EQ(c.status, 0) << c.err;
  auto e = open("test.1.er");
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->log.cost.known);
  EXPECT_EQ(e->log.cost.signals, 0u);
  EXPECT_EQ(e->log.cost.signal_ns, 0u);
  EXPECT_EQ(e->log.cost.helper_cpu_ns, 0u) << "no collector thread without clock profiling and samples";
}

}  // namespace
}  // namespace erkit::e2e
