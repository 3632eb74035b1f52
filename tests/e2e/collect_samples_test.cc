// End-to-end: overview samples (seed-spec §2.6) at start and end, every -S interval, on the -l
// signal, around pauses (-y); their usage figures against what the program did.
#include "collect_fixture.h"

namespace erkit::e2e {
namespace {

using format::OverviewSampleRecord;

class CollectSamples : public CollectTest {
 protected:
  std::vector<OverviewSampleRecord> samples(const std::string& exp) {
    std::vector<OverviewSampleRecord> out;
    if (auto e = open(exp))
      for (const auto& s : e->samples) out.push_back(s.rec);
    return out;
  }
  static int count(const std::vector<OverviewSampleRecord>& v, uint32_t reason) {
    int n = 0;
    for (const auto& s : v) n += s.reason == reason;
    return n;
  }
};

TEST_F(CollectSamples, StartAndEndSamplesHoldTheProcessUsage) {
  ASSERT_EQ(collect("-S off " + family() + " burn:200 write:512 read:256").status, 0);
  auto v = samples("test.1.er");
  ASSERT_GE(v.size(), 2u);
  EXPECT_EQ(v.front().reason, format::kSampleStart);
  EXPECT_EQ(v.back().reason, format::kSampleEnd);
  EXPECT_EQ(count(v, format::kSamplePeriodic), 0);
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i].number, i + 1);
  const auto& end = v.back();
  // The program burnt 200 ms of CPU in this process and moved 512 KiB out, 256 KiB in.
  EXPECT_GE(end.utime_ns + end.stime_ns, 190000000);
  EXPECT_LT(end.utime_ns + end.stime_ns, 600000000);
  EXPECT_GE(end.write_bytes, 512 * 1024);
  EXPECT_GE(end.read_bytes, 256 * 1024);
  EXPECT_GT(end.minflt, 0);
  EXPECT_GT(end.rss_kb, 0);
  EXPECT_GE(end.maxrss_kb, end.rss_kb / 2);
  EXPECT_GE(end.nthreads, 1u);
  EXPECT_GE(end.tstamp_ns, v.front().tstamp_ns);
}

TEST_F(CollectSamples, PeriodicSamplesFollowTheInterval) {
  ASSERT_EQ(collect("-S 1 " + family() + " sleep:2300").status, 0);
  auto v = samples("test.1.er");
  int periodic = count(v, format::kSamplePeriodic);
  // Two periods fit in 2.3 s; a loaded machine may delay one past the end.
  EXPECT_GE(periodic, 1);
  EXPECT_LE(periodic, 3);
  uint64_t prev = 0;
  for (const auto& s : v) {
    if (s.reason != format::kSamplePeriodic) continue;
    if (prev) {
      EXPECT_GE(s.tstamp_ns - prev, 900000000u);  // never early
    }
    prev = s.tstamp_ns;
  }
  auto off = collect("-S off " + family() + " sleep:1300");
  ASSERT_EQ(off.status, 0);
  EXPECT_EQ(count(samples("test.2.er"), format::kSamplePeriodic), 0);
}

TEST_F(CollectSamples, SampleSignalRecordsOneSampleEach) {
  // SIGUSR1's default action would kill the program: with -l it belongs to the collector.
  auto c = collect("-S off -l SIGUSR1 " + family() + " burn:30 raise:USR1 burn:30 raise:USR1 burn:30");
  ASSERT_EQ(c.status, 0) << c.err;
  auto v = samples("test.1.er");
  EXPECT_EQ(count(v, format::kSampleSignal), 2);
  auto e = open("test.1.er");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->log.settings["sample_signal"]["signal"], "SIGUSR1");
}

TEST_F(CollectSamples, PauseSignalTogglesRecording) {
  // Starts paused: only the work between the two signals is recorded.
  auto c = collect("-S off -y USR2 " + family() + " burnA:150 raise:USR2 burnB:150 raise:USR2 burnA:150");
  ASSERT_EQ(c.status, 0) << c.err;
  auto rows = user_seconds("test.1.er");
  EXPECT_NEAR(seconds_of(rows, "burn_b"), 0.15, 0.05);
  EXPECT_LT(seconds_of(rows, "burn_a"), 0.02);
  auto v = samples("test.1.er");
  EXPECT_EQ(count(v, format::kSampleResume), 1);
  EXPECT_EQ(count(v, format::kSamplePause), 1);
  // ",r": starts recording; the same signals now pause, then resume.
  ASSERT_EQ(collect("-S off -y SIGUSR2,r " + family() + " burnA:150 raise:USR2 burnB:150 raise:USR2 burnA:150").status,
            0);
  auto r = user_seconds("test.2.er");
  EXPECT_NEAR(seconds_of(r, "burn_a"), 0.30, 0.06);
  EXPECT_LT(seconds_of(r, "burn_b"), 0.02);
  auto e = open("test.2.er");
  ASSERT_TRUE(e);
  ASSERT_EQ(e->log.recording_changes.size(), 2u);
  EXPECT_FALSE(e->log.recording_changes[0].second);
  EXPECT_TRUE(e->log.recording_changes[1].second);
}

TEST_F(CollectSamples, ForkedChildrenStartTheirOwnNumbering) {
  ASSERT_EQ(collect("-S off -F on " + family() + " fork:20").status, 0);
  auto child = samples("test.1.er/_f1.er");
  ASSERT_GE(child.size(), 2u);
  EXPECT_EQ(child.front().number, 1u);
  EXPECT_EQ(child.front().reason, format::kSampleStart);
  EXPECT_EQ(child.back().reason, format::kSampleEnd);
  // The child's figures are its own: it burnt 20 ms, its parent nothing.
  EXPECT_GE(child.back().utime_ns + child.back().stime_ns, 15000000);
}

}  // namespace
}  // namespace erkit::e2e
