// Cycle-type counters shown as time (issue 19): collect records the CPUs' clock rate in the
// log (er_print's header shows it as the manual does: "16 CPUs at 3000 MHz"), and er_print
// shows `cycles` with '.' as seconds at that rate, with '+' as the count. The conversion
// itself is unit-tested on synthesized experiments (src/erprint/cycles_time_test.cc,
// src/model/cycles_time_test.cc); the hardware run here skips where no PMU counts cycles.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "collect_fixture.h"

namespace erkit::e2e {
namespace {

class CountersCyclesTimeTest : public CollectTest {};

// Whether this machine shows its CPUs' clock rate (cpufreq, or /proc/cpuinfo's "cpu MHz").
bool machine_shows_a_rate() {
  if (std::filesystem::exists("/sys/devices/system/cpu/cpu0/cpufreq")) return true;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("cpu MHz", 0) == 0) return true;
  return false;
}

// The rate the header shows, in MHz (0 if none).
double header_mhz(const std::string& header) {
  std::smatch m;
  if (!std::regex_search(header, m, std::regex(R"(Hardware: \d+ CPUs at ([0-9.]+) MHz)"))) return 0;
  return std::stod(m[1]);
}

TEST_F(CountersCyclesTimeTest, TheLogRecordsTheCpuClockRate) {
  auto c = collect("-o r.er -h page-faults,1 " + program("ds_first_touch"));  // a software event: any machine
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  auto h = er_print("-header r.er");
  ASSERT_EQ(h.status, 0) << h.err;
  if (machine_shows_a_rate()) {
    EXPECT_GT(header_mhz(h.out), 1.0) << h.out;
    EXPECT_LT(header_mhz(h.out), 100000.0) << h.out;
  } else {
    EXPECT_EQ(header_mhz(h.out), 0) << h.out;
  }
}

TEST_F(CountersCyclesTimeTest, CyclesAreShownAsTimeAtTheRecordedRate) {
  auto c = collect("-o cy.er -h cycles,hi " + program("ds_first_touch"));
  if (c.status != 0) {
    EXPECT_NE(c.err.find("cannot count cycles"), std::string::npos) << c.err;
    GTEST_SKIP() << "no PMU counts CPU cycles here (cycles as time is checked on synthesized experiments): " << c.err;
  }
  auto h = er_print("-header cy.er");
  const double mhz = header_mhz(h.out);
  if (mhz == 0) GTEST_SKIP() << "this machine shows no CPU clock rate: cycles stay counts";
  auto f = er_print("-metrics e.cycles:e+cycles -functions cy.er");
  ASSERT_EQ(f.status, 0) << f.err;
  auto rows = parse_function_list(f.out);
  ASSERT_TRUE(rows.count("<Total>")) << f.out;
  const auto& v = rows.at("<Total>").values;
  ASSERT_GE(v.size(), 2u) << f.out;
  // seconds = cycles / rate; each column is rounded as printed (1 ms, 1 count).
  EXPECT_NEAR(v[0], v[1] / (mhz * 1e6), 0.001 + 1e-6 * v[0]) << f.out;
  EXPECT_NE(f.out.find("sec."), std::string::npos) << f.out;
}

}  // namespace
}  // namespace erkit::e2e
