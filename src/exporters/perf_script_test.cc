#include "exporters/perf_script.h"

#include <gtest/gtest.h>

#include <sstream>

namespace erkit::exporters {
namespace {

PerfScript parse(const std::string& text) {
  std::istringstream in(text);
  return parse_perf_script(in);
}

TEST(PerfScript, ParsesTheNarrowLayoutWithMmapsAndCallchains) {
  auto s = parse(
      "    0/0         0.000000000: PERF_RECORD_MMAP -1/0: [0xffffffff81000000(0x1276508) @ 0xffffffff81000000]: x [kernel.kallsyms]_text\n"
      "31789/31789  1673.142774082: PERF_RECORD_MMAP2 31789/31789: [0x559eb22bb000(0x1000) @ 0x1000 fe:00 5333011 828314180]: r-xp /work/a b/prog\n"
      "31789/31790  1673.142989473:     250000 cpu-clock: \n"
      "\t           14f02 (/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)\n"
      "\t  7ffe2d5c569000 ([unknown])\n"
      "\n"
      "31789/31789  1673.143484000:     250000 cpu-clock:u: \n"
      "\t            11ad (/work/a b/prog)\n");
  EXPECT_EQ(s.unparsed_lines, 0u) << s.first_unparsed;
  ASSERT_EQ(s.mmaps.size(), 2u);
  EXPECT_EQ(s.mmaps[1].pid, 31789);
  EXPECT_EQ(s.mmaps[1].start, 0x559eb22bb000u);
  EXPECT_EQ(s.mmaps[1].len, 0x1000u);
  EXPECT_EQ(s.mmaps[1].pgoff, 0x1000u);
  EXPECT_EQ(s.mmaps[1].prot, "r-xp");
  EXPECT_EQ(s.mmaps[1].path, "/work/a b/prog");
  EXPECT_EQ(s.mmaps[1].time_ns, 1673142774082u);
  ASSERT_EQ(s.samples.size(), 2u);
  EXPECT_EQ(s.samples[0].pid, 31789);
  EXPECT_EQ(s.samples[0].tid, 31790);
  EXPECT_EQ(s.samples[0].period, 250000u);
  EXPECT_EQ(s.samples[0].event, "cpu-clock");
  ASSERT_EQ(s.samples[0].frames.size(), 2u);
  EXPECT_EQ(s.samples[0].frames[0].ip, 0x14f02u);
  EXPECT_EQ(s.samples[0].frames[0].dso, "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
  EXPECT_EQ(s.samples[0].frames[1].dso, "[unknown]");
  EXPECT_EQ(s.samples[1].event, "cpu-clock:u");
  EXPECT_EQ(s.samples[1].frames[0].dso, "/work/a b/prog");
}

TEST(PerfScript, ParsesPerfsDefaultLayout) {
  auto s = parse(
      "work ratio 31789 [001]  1673.142989:     250000 cpu-clock: \n"
      "\t           14f02 intel_check_word.constprop.0+0x122 (/usr/lib/ld.so)\n"
      "\t            1180 main+0x20 (/tmp/prog)\n"
      "\n"
      "prog 12 [000] 5.5: 1000 task-clock:  4011ad one+0x2d (/tmp/prog)\n");
  EXPECT_EQ(s.unparsed_lines, 0u) << s.first_unparsed;
  ASSERT_EQ(s.samples.size(), 2u);
  EXPECT_EQ(s.samples[0].pid, 31789);
  EXPECT_EQ(s.samples[0].tid, 31789);
  EXPECT_EQ(s.samples[0].time_ns, 1673142989000u);
  ASSERT_EQ(s.samples[0].frames.size(), 2u);
  EXPECT_EQ(s.samples[0].frames[1].ip, 0x1180u);
  EXPECT_EQ(s.samples[0].frames[1].dso, "/tmp/prog");
  // Without -g the ip follows the event on the header line.
  EXPECT_EQ(s.samples[1].event, "task-clock");
  ASSERT_EQ(s.samples[1].frames.size(), 1u);
  EXPECT_EQ(s.samples[1].frames[0].ip, 0x4011adu);
}

TEST(PerfScript, CountsWhatItCannotRead) {
  auto s = parse("hello world\nthis is not perf\n");
  EXPECT_EQ(s.samples.size(), 0u);
  EXPECT_EQ(s.unparsed_lines, 2u);
  EXPECT_EQ(s.first_unparsed, "hello world");
}

TEST(PerfTime, IsExactToTheNanosecond) {
  uint64_t ns = 0;
  ASSERT_TRUE(parse_perf_time("1673.142989473:", &ns));
  EXPECT_EQ(ns, 1673142989473u);
  ASSERT_TRUE(parse_perf_time("2.5", &ns));
  EXPECT_EQ(ns, 2500000000u);
  EXPECT_FALSE(parse_perf_time("x.5", &ns));
}

}  // namespace
}  // namespace erkit::exporters
