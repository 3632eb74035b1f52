#include "model/clock_scan.h"

#include <gtest/gtest.h>

#include <functional>
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
Truth truth(const reader::Experiment& e, const std::function<bool(const EventRecord&)>& keep = nullptr) {
  Truth t;
  for_each_event(e, [&](const EventRecord& ev) {
    if (keep && !keep(ev)) return;
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

// Keeps samples of even threads or of stacks whose id (read through the stack context the
// scan hands it, so a wrong context shows) is a multiple of 3, within a time range.
class TestFilter final : public ClockSampleFilter {
 public:
  TestFilter(const reader::Experiment& e, uint64_t lo, uint64_t hi) : lo_(lo), hi_(hi) {
    for (const auto& s : e.clock) ids_.emplace(s.stack_id, s.stack_id);
  }
  const void* stack_context(uint64_t id) const override { return &ids_.at(id); }
  bool keep(const reader::ClockSample& s, const void* ctx) const override {
    return keep(s.tid, *static_cast<const uint64_t*>(ctx), s.tstamp_ns);
  }
  bool keep(uint32_t tid, uint64_t stack_id, uint64_t t) const {
    return (tid % 2 == 0 || stack_id % 3 == 0) && t >= lo_ && t < hi_;
  }

 private:
  std::map<uint64_t, uint64_t> ids_;
  uint64_t lo_, hi_;
};

void expect_matches(const reader::Experiment& e, unsigned workers, const TestFilter* filter = nullptr) {
  Truth want = filter ? truth(e, [&](const EventRecord& ev) { return filter->keep(ev.tid, ev.stack_id, ev.tstamp_ns); })
                      : truth(e);
  ClockScan got = filter ? scan_clock_samples(e, *filter, workers) : scan_clock_samples(e, workers);
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
  if (filter) {  // first_ns: the first kept sample's time
    std::map<uint64_t, uint64_t> first;
    for (const auto& c : e.clock)
      if (filter->keep(c.tid, c.stack_id, c.tstamp_ns)) first.try_emplace(c.stack_id, c.tstamp_ns);
    for (const auto& s : got.stacks) ASSERT_EQ(s.first_ns, first.at(s.stack_id));
  }
}

TEST(ClockScan, OneWorkerSumsLikeTheEventPass) { expect_matches(experiment(20000, 300, 1), 1); }

// Parts run on their own threads only from 2^18 samples each.
TEST(ClockScan, PartsOnThreadsMergeInSampleOrder) {
  reader::Experiment e = experiment(3 << 18, 5000, 2);
  expect_matches(e, 3);
  expect_matches(e, 2);
}

// A filter applied in the scan (issue 24): sums of the kept samples, stacks in order of their
// first kept sample, also when a part keeps nothing of a stack it saw first.
TEST(ClockScan, FilterKeepsTheSampleBySampleSumsAndOrder) {
  reader::Experiment small = experiment(20000, 300, 4);
  TestFilter f1(small, 30000, 150000);
  expect_matches(small, 1, &f1);
  reader::Experiment e = experiment(3 << 18, 2000, 5);
  TestFilter f2(e, 2000000, 7000000);  // samples 200,000 to 700,000 of 786,432
  expect_matches(e, 3, &f2);
  expect_matches(e, 2, &f2);
  TestFilter none(e, 1, 0);
  ClockScan empty = scan_clock_samples(e, none, 3);
  EXPECT_TRUE(empty.stacks.empty());
  EXPECT_TRUE(empty.threads.empty());
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
