#include "kernel/sched_states.h"

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

namespace erkit::kernel {
namespace {

using Interval = std::tuple<uint32_t, OffCpu, uint64_t, uint64_t>;

struct Fixture {
  std::vector<Interval> out;
  SchedStates s{[this](uint32_t tid, OffCpu st, uint64_t a, uint64_t b) { out.emplace_back(tid, st, a, b); }};
};

TEST(SchedStates, SleepThenWakeThenRun) {
  Fixture f;
  f.s.begin(7, true, 100);
  f.s.on_switch(200, 7, 1 /* S */, 0);  // goes to sleep
  f.s.on_wakeup(1200, 7);               // woken: runnable
  f.s.on_switch(1250, 0, 0, 7);         // runs again
  f.s.end(2000);
  ASSERT_EQ(f.out.size(), 2u);
  EXPECT_EQ(f.out[0], Interval(7, OffCpu::Sleeping, 200, 1200));
  EXPECT_EQ(f.out[1], Interval(7, OffCpu::Stalled, 1200, 1250));
}

TEST(SchedStates, PreemptedIsStalled) {
  Fixture f;
  f.s.begin(7, true, 0);
  f.s.on_switch(10, 7, 0x100 /* R+ */, 9);
  f.s.on_switch(30, 9, 0, 7);
  f.s.end(40);
  ASSERT_EQ(f.out.size(), 1u);
  EXPECT_EQ(f.out[0], Interval(7, OffCpu::Stalled, 10, 30));
}

TEST(SchedStates, AsleepAtStartAndStillAsleepAtEnd) {
  Fixture f;
  f.s.begin(7, false, 5);
  f.s.end(50);
  ASSERT_EQ(f.out.size(), 1u);
  EXPECT_EQ(f.out[0], Interval(7, OffCpu::Sleeping, 5, 50));
}

TEST(SchedStates, ExitedThreadEndsAtItsLastSwitch) {
  Fixture f;
  f.s.begin(7, true, 0);
  f.s.on_switch(10, 7, 0x10 /* X */, 0);
  f.s.end(100);
  EXPECT_TRUE(f.out.empty());
}

TEST(SchedStates, OtherThreadsAreIgnored) {
  Fixture f;
  f.s.begin(7, true, 0);
  f.s.on_switch(10, 8, 1, 9);
  f.s.on_wakeup(20, 8);
  f.s.end(30);
  EXPECT_TRUE(f.out.empty());
}

}  // namespace
}  // namespace erkit::kernel
