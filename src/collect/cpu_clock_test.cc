// The CPUs' clock rate recorded for converting cycles to time (issue 19): the harmonic mean
// of the manual, /proc/cpuinfo's and cpufreq's formats, over a fake root.
#include "collect/cpu_clock.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace erkit::collect {
namespace {

TEST(CpuClock, HarmonicMeanOfTheCpusRates) {
  // 2 GHz and 3 GHz: 2 / (1/2 + 1/3) = 2.4 GHz (the arithmetic mean would be 2.5).
  const uint64_t two[] = {2'000'000, 3'000'000};
  EXPECT_EQ(harmonic_mean_khz(two), 2'400'000u);
  const uint64_t same[] = {2'300'000, 2'300'000, 0};  // an unknown rate is skipped
  EXPECT_EQ(harmonic_mean_khz(same), 2'300'000u);
  EXPECT_EQ(harmonic_mean_khz({}), 0u);
}

TEST(CpuClock, ParsesCpuinfoMhzLines) {
  const char* text =
      "processor\t: 0\nmodel name\t: Xeon\ncpu MHz\t\t: 2300.000\ncache size\t: 4096 KB\n\n"
      "processor\t: 1\ncpu MHz\t\t: 3499.998\n\nprocessor\t: 2\ncpu MHz\t\t: garbage\n";
  auto v = parse_cpuinfo_khz(text);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0], 2'300'000u);
  EXPECT_EQ(v[1], 3'499'998u);
  EXPECT_TRUE(parse_cpuinfo_khz("processor : 0\nBogoMIPS : 50.00\n").empty());  // aarch64: no MHz
}

class CpuClockRoot : public ::testing::Test {
 protected:
  void SetUp() override {
    root = std::filesystem::temp_directory_path() / ("erkit_cpu_clock_" + std::to_string(getpid()));
    std::filesystem::remove_all(root);
  }
  void TearDown() override { std::filesystem::remove_all(root); }
  void put(const std::string& rel, const std::string& text) {
    auto p = root / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  std::filesystem::path root;
};

TEST_F(CpuClockRoot, CpufreqFirstThenCpuinfo) {
  put("proc/cpuinfo", "cpu MHz\t\t: 1000.000\ncpu MHz\t\t: 1000.000\n");
  std::filesystem::create_directories(root / "sys/devices/system/cpu/cpu0");
  std::filesystem::create_directories(root / "sys/devices/system/cpu/cpu1");
  CpuClock c = probe_cpu_clock(root.string());  // no cpufreq: /proc/cpuinfo
  EXPECT_EQ(c.source, "cpuinfo");
  EXPECT_EQ(c.khz, 1'000'000u);
  EXPECT_EQ(cpu_clock_log_line(c), "0 cpu_clock khz=1000000 source=cpuinfo cpus=1000000,1000000");

  put("sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "2000000\n");
  put("sys/devices/system/cpu/cpu1/cpufreq/cpuinfo_max_freq", "3000000\n");
  c = probe_cpu_clock(root.string());
  EXPECT_EQ(c.source, "cpufreq");
  EXPECT_EQ(c.khz, 2'400'000u);
  EXPECT_EQ(c.cpus, (std::vector<uint64_t>{2'000'000, 3'000'000}));
}

TEST_F(CpuClockRoot, NoRateNoLine) {
  CpuClock c = probe_cpu_clock(root.string());
  EXPECT_EQ(c.khz, 0u);
  EXPECT_EQ(cpu_clock_log_line(c), "");
}

}  // namespace
}  // namespace erkit::collect
