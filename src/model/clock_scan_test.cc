#include "model/clock_scan.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "model/event_source.h"

namespace erkit::model {
namespace {

// Samples over `nstacks` stacks and 5 threads, with main-thread and kernel samples among them.
reader::Experiment experiment(size_t n, uint64_t nstacks, uint32_t seed) {
  std::mt19937_64 rng(seed);
  reader::Experiment e;
  for (size_t i = 0; i < n; ++i) {
    reader::ClockSample s{};
    s.tstamp_ns = i * 10;
    s.stack_id = 1000 + rng() % nstacks;
    s.tid = uint32_t(100 + rng() % 5);
    s.cpu = int32_t(rng() % 3) - 1;
    uint32_t kind = uint32_t(rng() % 8);
    s.flags = kind == 0 ? format::kClockFlagMainThread
              : kind == 1 ? format::kClockFlagKernel
              : kind == 2 ? format::kClockFlagKernel | format::kClockFlagKernelThread
                          : 0;
    for (auto& ns : s.ns) ns = rng() % 1000;
    e.clock.push_back(s);
  }
  return e;
}

// The ground truth: the values event_source gives each sample, summed per stack in order of
// first sample, and per thread.
struct Truth {
  std::vector<uint64_t> order;
  std::map<uint64_t, std::array<int64_t, kMetricCount>> sums;
  std::map<uint32_t, ClockThreadSum> threads;
  std::vector<int32_t> cpus;
};
Truth truth(const reader::Experiment& e) {
  Truth t;
  for_each_event(e, [&](const EventRecord& ev) {
    auto [it, fresh] = t.sums.try_emplace(ev.stack_id);
    if (fresh) t.order.push_back(ev.stack_id);
    for (uint32_t m = 0; m < kMetricCount; ++m) it->second[m] += ev.values[m];
    auto [th, new_thread] = t.threads.try_emplace(ev.tid, ClockThreadSum{ev.tid, ev.tstamp_ns, ev.tstamp_ns, 0});
    th->second.first_ns = std::min(th->second.first_ns, ev.tstamp_ns);
    th->second.last_ns = std::max(th->second.last_ns, ev.tstamp_ns);
    th->second.events++;
    if (ev.cpu >= 0 && std::find(t.cpus.begin(), t.cpus.end(), ev.cpu) == t.cpus.end()) t.cpus.push_back(ev.cpu);
  });
  return t;
}

void expect_matches(const reader::Experiment& e, unsigned workers) {
  Truth want = truth(e);
  ClockScan got = scan_clock_samples(e, workers);
  ASSERT_EQ(got.stacks.size(), want.order.size());
  for (size_t i = 0; i < got.stacks.size(); ++i) {
    ASSERT_EQ(got.stacks[i].stack_id, want.order[i]) << "order of first sample, slot " << i;
    const auto& w = want.sums[want.order[i]];
    int64_t covered = 0;
    for (uint32_t m = 0; m < kClockSumCount; ++m) {
      EXPECT_EQ(got.stacks[i].values[m], w[kClockSumMetrics[m]]) << "metric " << kClockSumMetrics[m];
      covered += w[kClockSumMetrics[m]];
    }
    int64_t all = 0;
    for (int64_t v : w) all += v;
    EXPECT_EQ(covered, all) << "a metric outside kClockSumMetrics has clock data";
  }
  ASSERT_EQ(got.threads.size(), want.threads.size());
  for (const auto& t : got.threads) {
    const auto& w = want.threads.at(t.tid);
    EXPECT_EQ(t.first_ns, w.first_ns);
    EXPECT_EQ(t.last_ns, w.last_ns);
    EXPECT_EQ(t.events, w.events);
  }
  EXPECT_EQ(got.cpus, want.cpus);
  EXPECT_EQ(got.omp_states, has_omp_samples(e));
}

TEST(ClockScan, OneWorkerSumsLikeTheEventPass) { expect_matches(experiment(20000, 300, 1), 1); }

// Parts run on their own threads only from 2^18 samples each.
TEST(ClockScan, PartsOnThreadsMergeInSampleOrder) {
  reader::Experiment e = experiment(3 << 18, 5000, 2);
  expect_matches(e, 3);
  expect_matches(e, 2);
}

TEST(ClockScan, OpenMpStatesAreNoticed) {
  reader::Experiment e = experiment(3 << 18, 100, 3);
  e.clock[(3 << 18) - 5].omp_state = format::kOmpWork;  // in the last part only
  EXPECT_TRUE(scan_clock_samples(e, 3).omp_states);
}

TEST(ClockScan, EmptyExperiment) {
  reader::Experiment e;
  ClockScan s = scan_clock_samples(e);
  EXPECT_TRUE(s.stacks.empty());
  EXPECT_TRUE(s.threads.empty());
}

}  // namespace
}  // namespace erkit::model
