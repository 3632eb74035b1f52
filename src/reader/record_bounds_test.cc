#include "reader/record_bounds.h"

#include <gtest/gtest.h>

namespace erkit::reader {
namespace {

constexpr uint64_t kMs = 1000000;

// A finished 400 ms run of process 100 with a second thread 101.
Experiment run_of_400ms() {
  Experiment e;
  e.log.pid = 100;
  e.log.threads[101].tid = 101;
  e.log.collector_exit = "exit";
  e.log.last_event_ns = 400 * kMs;
  return e;
}

ClockSample sample(uint32_t tid, uint64_t t, uint64_t user) {
  ClockSample s{};
  s.tid = tid;
  s.tstamp_ns = t;
  s.ns[format::kMsUser] = user;
  return s;
}

TEST(RecordBounds, TheRunsEndAndThreadsComeFromTheLog) {
  auto b = run_bounds(run_of_400ms().log);
  EXPECT_TRUE(b.time_known);
  EXPECT_EQ(b.end_ns, 400 * kMs + kEndSlackNs);
  EXPECT_EQ(b.tids, (std::set<uint32_t>{100, 101}));
  RunLog killed;  // no exit line: the log may end long before the data
  killed.last_event_ns = 5;
  EXPECT_FALSE(run_bounds(killed).time_known);
}

TEST(RecordBounds, ClockSamplesOutsideTheRunAreDroppedAndCounted) {
  Experiment e = run_of_400ms();
  for (int i = 0; i < 40; ++i) e.clock.push_back(sample(i % 2 ? 100 : 101, uint64_t(i) * 10 * kMs, 10 * kMs));
  e.clock.push_back(sample(100, 200 * kMs, uint64_t(1) << 40));  // 1 099 s in a 0.4 s run
  e.clock.push_back(sample(100, uint64_t(1) << 40, 10 * kMs));    // long after the end
  e.clock.push_back(sample(7777, 100 * kMs, 10 * kMs));           // a thread nobody started
  validate_records(e);
  EXPECT_EQ(e.clock.size(), 40u);
  ASSERT_EQ(e.problems.size(), 1u);
  EXPECT_EQ(e.problems[0].file, "profile");
  EXPECT_EQ(e.problems[0].message,
            "3 records with values outside the run's bounds (damaged) dropped: 1 after the run's end (2.400 s), "
            "1 of threads the log does not know, 1 standing for more time than the run lasted (2.400 s)");
}

TEST(RecordBounds, AThreadIsNeverCreditedWithMoreThanTheRun) {
  // Each sample is plausible alone (1.5 s), but one thread cannot have used 30 s in 2.4 s: the
  // largest samples go until the thread is within the bound.
  Experiment e = run_of_400ms();
  for (int i = 0; i < 20; ++i) e.clock.push_back(sample(101, uint64_t(i) * kMs, 1500 * kMs));
  e.clock.push_back(sample(100, 1, 100 * kMs));
  validate_records(e);
  uint64_t t101 = 0;
  for (const auto& s : e.clock)
    if (s.tid == 101) t101 += s.ns[format::kMsUser];
  EXPECT_LE(t101, 400 * kMs + kEndSlackNs);
  EXPECT_EQ(e.clock.size(), 2u);  // one 1.5 s sample of 101 fits, and 100's sample
  ASSERT_EQ(e.problems.size(), 1u);
  EXPECT_NE(e.problems[0].message.find("19 beyond a thread's time in the run"), std::string::npos)
      << e.problems[0].message;
}

TEST(RecordBounds, SyncIoAndHeapRecordsAreChecked) {
  Experiment e = run_of_400ms();
  format::SyncEventRecord s{};
  s.tid = 101, s.tstamp_ns = 100 * kMs, s.wait_ns = 50 * kMs;
  e.sync.push_back(s);
  s.wait_ns = uint64_t(1) << 42;
  e.sync.push_back(s);
  format::IoEventRecord io{};
  io.tid = 100, io.tstamp_ns = 10 * kMs, io.duration_ns = 1000, io.bytes = 4096;
  e.io.push_back(io);
  io.bytes = int64_t(1) << 40;  // a terabyte in a microsecond
  e.io.push_back(io);
  io.bytes = -1;  // a failed call
  e.io.push_back(io);
  format::HeapEvent h{};
  h.tid = 101, h.tstamp_ns = 10 * kMs, h.size = 100;
  e.heap.push_back(h);
  h.tid = 5;
  e.heap.push_back(h);
  validate_records(e);
  EXPECT_EQ(e.sync.size(), 1u);
  EXPECT_EQ(e.io.size(), 2u);
  EXPECT_EQ(e.heap.size(), 1u);
  ASSERT_EQ(e.problems.size(), 3u);
  EXPECT_EQ(e.problems[0].file, "synctrace");
  EXPECT_EQ(e.problems[1].file, "iotrace");
  EXPECT_NE(e.problems[1].message.find("1 moving more bytes than an I/O call can"), std::string::npos);
  EXPECT_EQ(e.problems[2].file, "heaptrace");
}

TEST(RecordBounds, LogsThatDoNotDescribeTheThreadsAreNotUsedForThem) {
  // Synthetic experiments (tests, er_import) name threads their log does not list; a killed run
  // has no exit line. Nothing is dropped then but what the plausibility checks catch.
  Experiment e;
  e.log.pid = 1000;
  e.clock.push_back(sample(1, 5 * kMs, 10 * kMs));
  e.clock.push_back(sample(2, uint64_t(1) << 40, 10 * kMs));
  validate_records(e);
  EXPECT_EQ(e.clock.size(), 2u);
  EXPECT_TRUE(e.problems.empty());
}

}  // namespace
}  // namespace erkit::reader
