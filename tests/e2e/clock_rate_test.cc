// End-to-end tests of the clock-profiling rate (issue 16, item 2): with ERKIT_CLOCK_SOURCE=perf,
// per-thread perf task-clock events deliver one sample per requested interval of a thread's CPU
// time (POSIX CPU-time timers, the default, deliver one per scheduler tick at most: a quarter of
// -p hi's samples at HZ=250), and where perf events are unavailable the collector falls back to
// the timers with a warning.
// Truth: each thread's CPU time from the kernel, written by the program (clock_truth.h).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <map>

#include "e2e_util.h"
#include "reader/experiment.h"

namespace erkit::e2e {
namespace {

struct Counted {
  std::map<long, double> cpu_s;  // per tid, from the truth file
  std::map<long, std::string> name;
};

Counted read_cpu_truth(const std::string& path) {
  Counted c;
  std::ifstream in(path);
  std::string kind;
  while (in >> kind) {
    if (kind == "thread") {
      std::string name;
      long tid;
      double u, s, cpu, d, l;
      in >> name >> tid >> u >> s >> cpu >> d >> l;
      c.cpu_s[tid] = cpu / 1e9;
      c.name[tid] = name;
    } else {
      std::string rest;
      std::getline(in, rest);
    }
  }
  return c;
}

class ClockRate : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_workdir("clockrate"); }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  // Collects clock_cpu_contention (4 CPU-bound threads on 2 CPUs) at -p hi, with `prefix`
  // before collect (a launcher). Returns the opened experiment.
  reader::OpenResult collect_contention(const std::string& prefix) {
    auto c = run("cd " + dir_ + " && ERKIT_CLOCK_SOURCE=perf " + prefix + bin("collect") + " -o t.er -p hi " +
                 program("clock_cpu_contention") + " t.txt");
    EXPECT_EQ(c.status, 0) << c.err << c.out;
    return reader::open_experiment(dir_ + "/t.er");
  }
  // Per contend_N thread: CPU samples recorded, and CPU time in the kernel's accounting.
  void count(const reader::Experiment& e, double* samples, double* cpu_s) {
    Counted truth = read_cpu_truth(dir_ + "/t.txt");
    *samples = 0;
    *cpu_s = 0;
    for (const auto& [tid, cpu] : truth.cpu_s) {
      if (truth.name[tid].rfind("contend_", 0) != 0) continue;
      *cpu_s += cpu;
      for (const auto& s : e.clock)
        if (s.tid == uint32_t(tid) && !(s.flags & format::kClockFlagBlockedSample) &&
            s.ns[format::kMsUser] + s.ns[format::kMsSystem] > 0)
          *samples += 1;
    }
  }
  std::string dir_;
};

TEST_F(ClockRate, HighRateRecordsOneSamplePerIntervalOfCpu) {
  auto r = collect_contention("");
  ASSERT_TRUE(r.experiment);
  const auto& log = r.experiment->log;
  ASSERT_GT(log.clock_interval_ns, 0u);
  ASSERT_TRUE(log.settings.count("clock_source"));
  EXPECT_EQ(log.settings.at("clock_source").at("source"), "perf_task_clock")
      << "perf events unavailable here? (perf_event_paranoid, seccomp)";
  double samples, cpu_s;
  count(*r.experiment, &samples, &cpu_s);
  double asked = cpu_s / (double(log.clock_interval_ns) / 1e9);
  ASSERT_GT(asked, 500) << "the program burnt less CPU than it should";
  // Fidelity: samples recorded per sample asked for. Each thread also gets one tail record at
  // its end (counted above, +4); a sample is lost only when its signal finds the previous one
  // still pending or lands in kernel mode. Margin: 2 standard deviations of a count of `asked`.
  double fidelity = samples / asked;
  EXPECT_GE(fidelity, 0.95 - 2 / std::sqrt(asked)) << samples << " samples for " << cpu_s << " s of CPU";
  EXPECT_LE(fidelity, 1.0 + (4 + 2 * std::sqrt(asked)) / asked) << samples << " samples for " << cpu_s << " s";
  for (const auto& w : log.warnings) EXPECT_EQ(w.second.find("perf"), std::string::npos) << w.second;
}

// A single thread that is never scheduled out: getrusage's figures advance only at scheduler
// ticks for it, so a sample must take its CPU time from the thread's CPU clock or three of four
// 1 ms samples would carry no time and be dropped.
TEST_F(ClockRate, HighRateOnASingleUninterruptedThread) {
  auto c = run("cd " + dir_ + " && ERKIT_CLOCK_SOURCE=perf " + bin("collect") + " -o w.er -p hi " + program("work_ratio") +
               " 200000000 w.txt");
  ASSERT_EQ(c.status, 0) << c.err << c.out;
  auto r = reader::open_experiment(dir_ + "/w.er");
  ASSERT_TRUE(r.experiment);
  auto t = read_seconds_by_name(dir_ + "/w.txt");
  ASSERT_TRUE(t.count("one") && t.count("two"));
  double samples = 0, recorded_s = 0;
  for (const auto& s : r.experiment->clock) {
    uint64_t ns = s.ns[format::kMsUser] + s.ns[format::kMsSystem];
    if (ns && !(s.flags & format::kClockFlagBlockedSample)) samples += 1;
    recorded_s += double(ns) / 1e9;
  }
  // one() and two() are most of the program's CPU; the samples also cover its start and end.
  double asked = (t["one"] + t["two"]) / (double(r.experiment->log.clock_interval_ns) / 1e9);
  ASSERT_GT(asked, 200) << "the program burnt less CPU than it should";
  EXPECT_GE(samples / asked, 0.95 - 2 / std::sqrt(asked)) << samples << " samples, " << asked << " asked";
  EXPECT_GE(recorded_s, t["one"] + t["two"]);
}

// The default stays the POSIX timers (their signals cost less on VMs, docs/clock-profiling.md).
TEST_F(ClockRate, TimersByDefault) {
  auto c = run("cd " + dir_ + " && " + bin("collect") + " -o d.er -p hi " + program("work_ratio") + " 20000000");
  ASSERT_EQ(c.status, 0) << c.err << c.out;
  auto r = reader::open_experiment(dir_ + "/d.er");
  ASSERT_TRUE(r.experiment);
  ASSERT_TRUE(r.experiment->log.settings.count("clock_source"));
  EXPECT_EQ(r.experiment->log.settings.at("clock_source").at("source"), "posix_timer");
  EXPECT_TRUE(r.experiment->log.warnings.empty());
}

TEST_F(ClockRate, WithoutPerfEventsTimersTakeOverWithAWarning) {
  auto r = collect_contention(program("deny_perf_events") + " ");
  ASSERT_TRUE(r.experiment);
  const auto& log = r.experiment->log;
  ASSERT_TRUE(log.settings.count("clock_source"));
  EXPECT_EQ(log.settings.at("clock_source").at("source"), "posix_timer");
  bool warned = false;
  for (const auto& w : log.warnings) warned |= w.second.find("perf_event_open") != std::string::npos;
  EXPECT_TRUE(warned) << "no clock_perf warning in the log";
  // The profile is still complete: samples are weighted by the CPU time they stand for.
  Counted truth = read_cpu_truth(dir_ + "/t.txt");
  for (const auto& [tid, cpu] : truth.cpu_s) {
    if (truth.name[tid].rfind("contend_", 0) != 0) continue;
    double recorded = 0;
    for (const auto& s : r.experiment->clock)
      if (s.tid == uint32_t(tid)) recorded += double(s.ns[format::kMsUser] + s.ns[format::kMsSystem]) / 1e9;
    EXPECT_NEAR(recorded / cpu, 1.0, 0.03) << truth.name[tid];
  }
}

TEST_F(ClockRate, CollectWithoutArgumentsSaysWhichClockSourceItWouldUse) {
  auto with = run(bin("collect"));
  EXPECT_NE((with.out + with.err).find("ERKIT_CLOCK_SOURCE=perf samples each thread"), std::string::npos) << with.out;
  auto without = run(program("deny_perf_events") + " " + bin("collect"));
  std::string text = without.out + without.err;
  EXPECT_NE(text.find("perf events are not available here"), std::string::npos) << text;
}

// The collector's threads as the program sees them in /proc/self/task. With the in-process
// sampler (the default), clock profiling, the microstates and the periodic samples share one
// sampler thread (the periodic samples had a second one). With the sampler in collect
// (ERKIT_SAMPLER=collect, issue 16) there is none: collect samples the microstates and takes
// the periodic samples from outside (docs/clock-profiling.md, *The sampler in collect*).
TEST_F(ClockRate, OneCollectorThreadForClockProfilingAndPeriodicSamples) {
  const char* sampler = std::getenv("ERKIT_SAMPLER");
  const int collector_threads = sampler && std::string(sampler) == "collect" ? 0 : 1;
  auto plain = run("cd " + dir_ + " && " + program("task_count") + " plain.txt");
  ASSERT_EQ(plain.status, 0) << plain.err;
  auto c = run("cd " + dir_ + " && " + bin("collect") + " -p on -S 1 " + program("task_count") + " under.txt");
  ASSERT_EQ(c.status, 0) << c.err << c.out;
  std::ifstream a(dir_ + "/plain.txt"), b(dir_ + "/under.txt");
  int n_plain = 0, n_under = 0;
  a >> n_plain;
  b >> n_under;
  EXPECT_EQ(n_plain, 1);
  EXPECT_EQ(n_under, n_plain + collector_threads) << "ERKIT_SAMPLER=" << (sampler ? sampler : "");
}

}  // namespace
}  // namespace erkit::e2e
