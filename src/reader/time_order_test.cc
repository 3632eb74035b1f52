#include "reader/time_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace erkit::reader {
namespace {

struct Rec {
  uint64_t tstamp_ns;
  uint64_t seq;  // position in the input: equal times must keep it ascending
};

std::vector<Rec> records(size_t n, uint64_t distinct_times, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Rec> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = {rng() % distinct_times, i};
  return v;
}

void expect_stable_sorted(std::vector<Rec> v) {
  std::vector<Rec> want = v;
  std::stable_sort(want.begin(), want.end(), [](const Rec& a, const Rec& b) { return a.tstamp_ns < b.tstamp_ns; });
  sort_by_time(v, [](const Rec& r) { return r.tstamp_ns; });
  ASSERT_EQ(v.size(), want.size());
  for (size_t i = 0; i < v.size(); ++i) {
    ASSERT_EQ(v[i].tstamp_ns, want[i].tstamp_ns) << i;
    ASSERT_EQ(v[i].seq, want[i].seq) << i;
  }
}

// Above 4096 records the permutation path runs; below, std::stable_sort.
TEST(TimeOrder, LargeShuffledInputWithTiesIsSortedStably) { expect_stable_sorted(records(100000, 5000, 1)); }
TEST(TimeOrder, SmallInputIsSortedStably) { expect_stable_sorted(records(1000, 50, 2)); }
TEST(TimeOrder, EveryRecordAtOneTimeKeepsItsOrder) { expect_stable_sorted(records(20000, 1, 3)); }

// Blocks of several writer threads: each block ascending, blocks interleaved.
TEST(TimeOrder, InterleavedAscendingBlocksAreMerged) {
  std::vector<Rec> v;
  for (uint64_t block = 0; block < 40; ++block)
    for (uint64_t i = 0; i < 1000; ++i) v.push_back({(block % 4) * 7 + i * 13 + block / 4, v.size()});
  expect_stable_sorted(v);
}

TEST(TimeOrder, SortedInputIsLeftAsItIs) {
  std::vector<Rec> v;
  for (uint64_t i = 0; i < 10000; ++i) v.push_back({i / 3, i});
  expect_stable_sorted(v);
}

}  // namespace
}  // namespace erkit::reader
