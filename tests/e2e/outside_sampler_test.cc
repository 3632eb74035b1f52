// Issue 16: the microstate sampler in collect (ERKIT_SAMPLER=collect). The target has no
// collector thread: a single-threaded program sees one entry in /proc/self/task, as without
// collect; the off-CPU microstates still come out (from outside); the sampler's cost is on the
// founder's log. The Clock microstate tests also run in this mode (ctest
// e2e_outside_sampler_microstates, tests/e2e/CMakeLists.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include "collect_fixture.h"
#include "format/experiment_format.h"

namespace erkit::e2e {
namespace {

class OutsideSampler : public CollectTest {};

TEST_F(OutsideSampler, TheTargetSeesNoCollectorThread) {
  auto plain = run(program("outside_task_count"));
  ASSERT_EQ(plain.status, 0) << plain.err;
  ASSERT_EQ(plain.out, "tasks 1 1\n") << "the program alone is single-threaded";
  auto c = run("cd " + dir_ + " && ERKIT_SAMPLER=collect " + bin("collect") + " -o t.er " + program("outside_task_count"));
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_EQ(c.out, plain.out) << "under collect with the outside sampler";
  // The collector says where its sampler is, and collect logged its own cost once.
  std::string log = read("t.er/log");
  EXPECT_NE(log.find("setting name=sampler where=collect"), std::string::npos) << log;
  EXPECT_NE(log.find(" sampler where=collect looks="), std::string::npos) << log;
  // The default (in-process sampler) still adds its thread: this test can tell them apart.
  auto d = run("cd " + dir_ + " && env -u ERKIT_SAMPLER " + bin("collect") + " -o d.er " + program("outside_task_count"));
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_EQ(d.out, "tasks 2 2\n");
}

TEST_F(OutsideSampler, SleepIsOtherWaitAtTheSleepingStack) {
  auto c = run("cd " + dir_ + " && ERKIT_SAMPLER=collect " + bin("collect") + " -o t.er " + program("outside_task_count"));
  ASSERT_EQ(c.status, 0) << c.err;
  auto p = er_print("-metrics i.user:i.owait:i.wall -functions t.er");
  ASSERT_EQ(p.status, 0) << p.err;
  // Column i of a function (its name may carry a compiler suffix: burn.constprop.0).
  auto rows = parse_function_list(p.out);
  auto value = [&](const std::string& fn, size_t i) { return function_value(rows, fn, i); };
  // 200 ms in nanosleep (its stack unwound from outside through libc into main), 100 ms of CPU
  // in burn; the initial thread's wall time covers both.
  EXPECT_NEAR(value("main", 1), 0.2, 0.04) << p.out;
  EXPECT_NEAR(value("clock_nanosleep", 1), 0.2, 0.04) << p.out;
  EXPECT_NEAR(value("burn", 0), 0.1, 0.03) << p.out;
  EXPECT_GT(value("<Total>", 2), 0.29) << p.out;
}

// A thread's last stretch, from collect's last look to its end, is accounted from the end
// line the thread writes (its final on-CPU time and run-queue delay), and the initial thread's
// from the zombie's counts at the collector's exit line. With -p 100 collect looks every
// 100 ms: without that, each sleep below lost 0-100 ms (on average 12 % of 0.4 s).
TEST_F(OutsideSampler, TheLastStretchOfEachThreadIsAccounted) {
  auto c = run("cd " + dir_ + " && ERKIT_SAMPLER=collect " + bin("collect") + " -p 100 -o t.er " +
               program("clock_sleeper") + " truth.txt");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(read("t.er/log").find(" thread_end tid="), std::string::npos);
  // "value <name> <ns>" lines (tests/programs/clock_truth.h).
  std::map<std::string, double> truth;
  {
    std::istringstream in(read("truth.txt"));
    std::string kind, name;
    double v;
    while (in >> kind) {
      if (kind == "value" && in >> name >> v) truth[name] = v;
      else in.ignore(1 << 20, '\n');
    }
  }
  // The truth is the wall time of each wait, which includes the run-queue delay after its
  // wake-up: Wait CPU of the same function (a loaded machine made it 33 ms of a 0.45 s wait).
  auto p = er_print("-metrics i.owait:i.wait -functions t.er");
  ASSERT_EQ(p.status, 0) << p.err;
  auto rows = parse_function_list(p.out);
  // Other Wait plus Wait CPU (columns 0 and 1).
  auto value = [&](const std::string& fn) { return function_value(rows, fn, 0) + function_value(rows, fn, 1); };
  double slept = truth["sleep_main_ns"] / 1e9, read_s = truth["wait_pipe_ns"] / 1e9;
  ASSERT_GT(slept, 0.3) << read("truth.txt");
  // Exact counters; the margin is the few ms of the threads' own start and end around the
  // truth's span.
  EXPECT_NEAR(value("sleep_main"), slept, 0.03 * slept + 0.005) << p.out;
  EXPECT_NEAR(value("wait_pipe"), read_s, 0.03 * read_s + 0.005) << p.out;
}

// Periodic samples (-S) of a process that sleeps: collect takes them from /proc at its looks
// (collect/outside/overview.h); the collector in the process has no thread to take them.
TEST_F(OutsideSampler, PeriodicSamplesOfASleepingProcessComeFromProc) {
  const double interval = 0.2;
  auto c = run("cd " + dir_ + " && ERKIT_SAMPLER=collect " + bin("collect") + " -S 0.2 -o t.er " +
               program("lifecycle_family") + " burn:100 sleep:1200");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/t.er/overview.outside"));
  auto r = reader::open_experiment(dir_ + "/t.er");
  ASSERT_TRUE(r.experiment) << r.error;
  const auto& e = *r.experiment;
  EXPECT_TRUE(e.problems.empty()) << e.problems.front().file << ": " << e.problems.front().message;
  const auto& v = e.samples;
  ASSERT_GE(v.size(), 2u);
  EXPECT_EQ(v.front().rec.reason, format::kSampleStart);  // the collector's
  EXPECT_EQ(v.back().rec.reason, format::kSampleEnd);
  const double life = double(v.back().rec.tstamp_ns - v.front().rec.tstamp_ns) * 1e-9;
  ASSERT_GE(life, 1.2);
  // Due every interval from the start, never early; a loaded machine may delay one past the
  // next due time (then that one is skipped), so at least half are there.
  // Due from the experiment's start (time 0), up to the end sample.
  const int due = int(double(v.back().rec.tstamp_ns) * 1e-9 / interval);
  int periodic = 0;
  int64_t cpu_before = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const auto& s = v[i].rec;
    EXPECT_EQ(s.number, i + 1) << "one numbering, in time order";
    // One thread (the program's): no collector thread in the process.
    EXPECT_EQ(s.nthreads, 1u) << "sample " << i + 1;
    EXPECT_GT(s.rss_kb, 0);
    // CPU time never goes back between the collector's samples (getrusage) and collect's (the
    // process clock): the same kernel count, read inside and outside (1 us: getrusage's unit).
    EXPECT_GE(s.utime_ns + s.stime_ns, cpu_before - 1000) << "sample " << i + 1;
    cpu_before = s.utime_ns + s.stime_ns;
    if (s.reason != format::kSamplePeriodic) continue;
    ++periodic;
    EXPECT_GE(double(s.tstamp_ns) * 1e-9, periodic * interval - 1e-6) << "periodic sample " << periodic << " early";
    // The process's CPU at the sample against its clock profile up to then: each clock sample
    // carries the thread's CPU up to its time, so their sum is at most the process's CPU
    // (which also counts the start before the clock ran: loading, the collector's start).
    int64_t profiled = 0, largest = 0;
    for (const auto& cs : e.clock) {
      int64_t ns = int64_t(cs.ns[format::kMsUser] + cs.ns[format::kMsSystem]);
      largest = std::max(largest, ns);
      if (cs.tstamp_ns <= s.tstamp_ns) profiled += ns;
    }
    // (1 ms: a clock sample's time and its CPU reading are two reads apart.)
    EXPECT_LE(profiled, s.utime_ns + s.stime_ns + 1000000) << "periodic sample " << periodic;
    // ... and at most that sum plus one sample's worth (the CPU since the last clock sample,
    // which the next one carries), the CPU before the start sample and 5 ms (the collector's
    // start between its start sample and its clock).
    EXPECT_LE(s.utime_ns + s.stime_ns, profiled + largest + v.front().rec.utime_ns + v.front().rec.stime_ns + 5000000)
        << "periodic sample " << periodic;
  }
  EXPECT_LE(periodic, due);
  EXPECT_GE(periodic, (due + 1) / 2) << "life " << life << " s";
  // The program burnt 100 ms: the end sample holds it.
  EXPECT_GE(v.back().rec.utime_ns + v.back().rec.stime_ns, 95000000);
}

// collect -P is implemented over the outside sampler: tests/e2e/attach_test.cc (CollectAttach.*).

}  // namespace
}  // namespace erkit::e2e
