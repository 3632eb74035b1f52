#include "collect/outside/overview.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>

namespace erkit::collect::outside {
namespace {

int64_t cpu_ns(const rusage& ru) {
  return (int64_t(ru.ru_utime.tv_sec) + int64_t(ru.ru_stime.tv_sec)) * 1000000000ll +
         (int64_t(ru.ru_utime.tv_usec) + int64_t(ru.ru_stime.tv_usec)) * 1000ll;
}

TEST(OutsideOverview, ParsesTheProcessFiles) {
  // comm with spaces and parentheses; fields 10 minflt, 12 majflt, 14 utime, 15 stime,
  // 20 num_threads (proc(5)).
  auto s = parse_process_stat("77 (a (b) c) S 1 77 77 0 -1 4194560 1234 0 3 0 25 7 0 0 20 0 5 0 4242 0 0\n");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->minflt, 1234u);
  EXPECT_EQ(s->majflt, 3u);
  EXPECT_EQ(s->utime, 25u);
  EXPECT_EQ(s->stime, 7u);
  EXPECT_EQ(s->num_threads, 5u);
  EXPECT_FALSE(parse_process_stat("77 (x) S 1 2\n"));
  EXPECT_FALSE(parse_process_stat("garbage"));

  const char* status = "Name:\tx\nVmHWM:\t    5120 kB\nvoluntary_ctxt_switches:\t12\nnonvoluntary_ctxt_switches:\t3\n";
  EXPECT_EQ(proc_field(status, "VmHWM"), 5120);
  EXPECT_EQ(proc_field(status, "voluntary_ctxt_switches"), 12);
  EXPECT_EQ(proc_field(status, "nonvoluntary_ctxt_switches"), 3);
  EXPECT_FALSE(proc_field(status, "VmRSS"));
  EXPECT_EQ(proc_field("rchar: 100\nwchar: 7\n", "wchar"), 7);
}

// This process read from "outside" (its /proc files and CPU clock) lies between getrusage()
// before and after: the same kernel counts the collector reads inside.
TEST(OutsideOverview, AgreesWithGetrusage) {
  volatile double x = 0;
  for (int i = 0; i < 20000000; ++i) x = x + 1.0 / (i + 1);  // some CPU time
  rusage before{}, after{};
  getrusage(RUSAGE_SELF, &before);
  OverviewReader reader(getpid());
  format::OverviewSampleRecord r{};
  ASSERT_TRUE(reader.read(&r));
  getrusage(RUSAGE_SELF, &after);
  // getrusage's times have microsecond resolution; the clock's are nanoseconds.
  EXPECT_GE(r.utime_ns + r.stime_ns, cpu_ns(before) - 1000);
  EXPECT_LE(r.utime_ns + r.stime_ns, cpu_ns(after) + 1000);
  EXPECT_GT(r.utime_ns, 0);
  EXPECT_GE(r.minflt, before.ru_minflt);
  EXPECT_LE(r.minflt, after.ru_minflt);
  EXPECT_GT(r.rss_kb, 0);
  EXPECT_GE(r.maxrss_kb, r.rss_kb);
  EXPECT_GE(r.read_bytes, 0);
  EXPECT_GE(r.write_bytes, 0);
  EXPECT_GE(r.nvcsw + r.nivcsw, 0);
  int tasks = 0;
  if (DIR* d = opendir("/proc/self/task")) {
    while (dirent* e = readdir(d)) tasks += e->d_name[0] != '.';
    closedir(d);
  }
  EXPECT_EQ(int(r.nthreads), tasks);
  // A process that is gone: nothing read.
  EXPECT_FALSE(OverviewReader(0x3fffffff).read(&r));
}

TEST(OutsideOverview, PeriodicSamplesAreNeverEarlyAndNeverBurst) {
  PeriodicDue due(1000, 100);
  EXPECT_FALSE(due.due(1099));
  EXPECT_TRUE(due.due(1100));
  EXPECT_FALSE(due.due(1150));
  EXPECT_TRUE(due.due(1230));   // late by 30: the next stays at 1300
  EXPECT_TRUE(due.due(1300));
  EXPECT_TRUE(due.due(2000));   // a stall past several: one, then the next a whole interval later
  EXPECT_FALSE(due.due(2050));
  EXPECT_TRUE(due.due(2100));
  PeriodicDue off(1000, 0);
  EXPECT_FALSE(off.due(1 << 30));
}

}  // namespace
}  // namespace erkit::collect::outside
