#include "collect/hwc_events.h"

#include <gtest/gtest.h>
#include <linux/perf_event.h>

namespace erkit::collect {
namespace {

std::vector<HwcCounter> parse_ok(const std::string& spec) {
  std::vector<HwcCounter> out;
  std::string err;
  EXPECT_TRUE(parse_hwc_spec(spec, &out, &err)) << err;
  return out;
}

std::string parse_err(const std::string& spec) {
  std::vector<HwcCounter> out;
  std::string err;
  EXPECT_FALSE(parse_hwc_spec(spec, &out, &err)) << spec;
  return err;
}

TEST(HwcSpec, SoftwareEventWithDataspaceAndInterval) {
  auto c = parse_ok("+page-faults,1");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].name, "page-faults");
  EXPECT_EQ(c[0].type, uint32_t(PERF_TYPE_SOFTWARE));
  EXPECT_EQ(c[0].config, uint64_t(PERF_COUNT_SW_PAGE_FAULTS));
  EXPECT_EQ(c[0].interval, 1u);
  EXPECT_TRUE(c[0].dataspace);
  EXPECT_TRUE(c[0].precise_addr);  // the kernel gives the faulting address
  EXPECT_EQ(c[0].memory, "load-store");
}

TEST(HwcSpec, AliasesIntervalsAndSeveralCounters) {
  auto c = parse_ok("cycles,hi,insts,lo,task-clock");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].perf_name, "cpu-cycles");
  EXPECT_TRUE(c[0].cycles);
  EXPECT_EQ(c[0].interval, 999999u);  // default 9999991 / 10
  EXPECT_EQ(c[1].perf_name, "instructions");
  EXPECT_EQ(c[1].interval, 99999910u);
  EXPECT_EQ(c[2].interval, 1000003u);  // default
  // perf's own names work too.
  EXPECT_EQ(parse_ok("L1-dcache-load-misses")[0].name, "dcm");  // the alias names the metric
  EXPECT_EQ(parse_ok("dcm")[0].config, uint64_t(PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
                                                 (PERF_COUNT_HW_CACHE_RESULT_MISS << 16)));
}

TEST(HwcSpec, BacktrackingOnAHardwareMemoryCounterAsksForPreciseAddresses) {
  auto c = parse_ok("+dcm,on");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].precise_ip, 2);
  EXPECT_TRUE(c[0].precise_addr);
}

TEST(HwcSpec, Attributes) {
  auto c = parse_ok("cycles~user=1~system=1~precise=1,1000");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_FALSE(c[0].exclude_user);
  EXPECT_FALSE(c[0].exclude_kernel);
  EXPECT_EQ(c[0].precise_ip, 1);
  EXPECT_EQ(c[0].interval, 1000u);
  EXPECT_NE(parse_err("cycles~bogus=1").find("no attribute 'bogus'"), std::string::npos);
  EXPECT_NE(parse_err("cycles~user").find("~name=value"), std::string::npos);
  EXPECT_NE(parse_err("cycles~user=x").find("bad value 'x'"), std::string::npos);
}

TEST(HwcSpec, Errors) {
  EXPECT_NE(parse_err("no-such-counter").find("unknown counter 'no-such-counter'"), std::string::npos);
  EXPECT_NE(parse_err("cycles,cycles").find("given twice"), std::string::npos);
  EXPECT_NE(parse_err("cycles,,insts").find("empty counter name"), std::string::npos);
  EXPECT_NE(parse_err("cycles,0").find("bad interval '0'"), std::string::npos);
}

TEST(HwcSpec, EnvironmentAndLog) {
  auto c = parse_ok("+page-faults,1,context-switches,5");
  EXPECT_EQ(hwc_env_value(c, false), "1:2:0:0:1:11/1:3:0:0:5:8");
  EXPECT_EQ(hwc_env_value({}, true), "clock+");
  auto lines = hwc_log_lines(c);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "0 hwc index=0 name=page-faults perf=page-faults description=\"Page Faults\" interval=1 "
                      "unit=events memory=load-store dataspace=1");
}

TEST(HwcProbe, SoftwareEventsOpenOnEveryMachine) {
  std::string err;
  EXPECT_TRUE(probe_hwc(parse_ok("page-faults,1,context-switches"), &err)) << err;
}

TEST(HwcProbe, UnavailableHardwareCounterIsRefusedWithTheReason) {
  if (hwc_unavailable_reason().empty()) GTEST_SKIP() << "this machine has a PMU: cycles can be counted";
  std::string err;
  EXPECT_FALSE(probe_hwc(parse_ok("cycles"), &err));
  EXPECT_NE(err.find("cannot count cycles"), std::string::npos) << err;
}

}  // namespace
}  // namespace erkit::collect
