// The CPUs' clock rate, recorded in the experiment's log at collect time (issue 19) so that
// er_print can show cycle-type counters (cycles, festalls, bestalls, refcycles) as time, as the
// manual does: "On multi-CPU machines the clock rate used is the harmonic mean of the CPUs'
// clock rates" (seed-spec §2.2, metric conversion).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace erkit::collect {

struct CpuClock {
  uint64_t khz = 0;           // harmonic mean of the rates found, rounded; 0: none found
  std::vector<uint64_t> cpus; // each CPU's rate in kHz, in CPU order
  std::string source;         // "cpufreq" or "cpuinfo"; empty when none was found
};

// Harmonic mean of the rates (kHz, zeros skipped), rounded to the nearest kHz; 0 if none.
uint64_t harmonic_mean_khz(std::span<const uint64_t> khz);
// The "cpu MHz" lines of /proc/cpuinfo text (x86: "cpu MHz\t\t: 2300.000"), in kHz.
std::vector<uint64_t> parse_cpuinfo_khz(std::string_view cpuinfo);
// This machine: each online CPU's /sys/devices/system/cpu/cpuN/cpufreq (scaling_cur_freq, else
// cpuinfo_cur_freq, else cpuinfo_max_freq: kHz), else /proc/cpuinfo's "cpu MHz" (virtual
// machines often have no cpufreq). `root` replaces "/" for tests.
CpuClock probe_cpu_clock(const std::string& root = "");
// The log line: `0 cpu_clock khz=2300000 source=cpuinfo cpus=2300000,2300000`, or "" when no
// rate was found (the experiment then shows cycles as counts only).
std::string cpu_clock_log_line(const CpuClock& c);

}  // namespace erkit::collect
