// Issue 16: the microstate sampler in collect (ERKIT_SAMPLER=collect). The target has no
// collector thread: a single-threaded program sees one entry in /proc/self/task, as without
// collect; the off-CPU microstates still come out (from outside); the sampler's cost is on the
// founder's log. The Clock microstate tests also run in this mode (ctest
// e2e_outside_sampler_microstates, tests/e2e/CMakeLists.txt).
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <sstream>
#include <string>

#include "collect_fixture.h"

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
  auto value = [&](const std::string& fn, size_t i) {
    double v = 0;
    for (const auto& [name, row] : rows)
      if ((name == fn || name.rfind(fn + ".", 0) == 0) && row.values.size() > i) v += row.values[i];
    return v;
  };
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
  auto value = [&](const std::string& fn) {
    double v = 0;
    for (const auto& [name, row] : rows)
      if (name == fn || name.rfind(fn + ".", 0) == 0)
        for (double x : row.values) v += x;
    return v;
  };
  double slept = truth["sleep_main_ns"] / 1e9, read_s = truth["wait_pipe_ns"] / 1e9;
  ASSERT_GT(slept, 0.3) << read("truth.txt");
  // Exact counters; the margin is the few ms of the threads' own start and end around the
  // truth's span.
  EXPECT_NEAR(value("sleep_main"), slept, 0.03 * slept + 0.005) << p.out;
  EXPECT_NEAR(value("wait_pipe"), read_s, 0.03 * read_s + 0.005) << p.out;
}

// collect -P is implemented over the outside sampler: tests/e2e/attach_test.cc (CollectAttach.*).

}  // namespace
}  // namespace erkit::e2e
