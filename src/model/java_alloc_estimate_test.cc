#include "model/java_alloc_estimate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace erkit::model {
namespace {

format::HeapEvent sample(uint64_t size, uint64_t interval, uint64_t t) {
  format::HeapEvent h{};
  h.op = format::kHeapJavaSample;
  h.size = size;
  h.interval = interval;
  h.tstamp_ns = t;
  h.stack_id = 77;
  h.tid = 5;
  return h;
}

TEST(JavaAllocEstimate, OtherEventsStandForThemselves) {
  format::HeapEvent h{};
  h.op = format::kHeapJavaAlloc;
  h.size = 1016;
  auto e = heap_estimate(h);
  EXPECT_EQ(e.count, 1);
  EXPECT_EQ(e.bytes, 1016);
  h.op = format::kHeapMalloc;
  h.size = 40;
  EXPECT_EQ(heap_estimate(h).bytes, 40);
  EXPECT_EQ(java_sample_probability(100, 0), 1.0);
}

TEST(JavaAllocEstimate, ProbabilityOfTheExponentialSampler) {
  EXPECT_NEAR(java_sample_probability(1024, 1024), 1 - std::exp(-1.0), 1e-12);
  EXPECT_NEAR(java_sample_probability(16, 524288), 16.0 / 524288, 1e-8);  // s << interval: s/interval
  EXPECT_NEAR(java_sample_probability(100 << 20, 524288), 1.0, 1e-12);    // far larger: always
}

TEST(JavaAllocEstimate, BytesAreSizeOverProbabilityCountsRoundUnbiased) {
  // A 1000-byte object at interval 4000: p = 1 - e^-0.25 = 0.2212, 1/p = 4.5208.
  double w = 1 / (1 - std::exp(-0.25));
  int64_t sum = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    auto e = heap_estimate(sample(1000, 4000, 1000 + uint64_t(i) * 7919));
    ASSERT_TRUE(e.count == 4 || e.count == 5) << e.count;
    ASSERT_EQ(e.bytes, std::llround(1000 * w));
    sum += e.count;
  }
  // Rounded up with probability 0.5208: the mean within 5 sigma of a Bernoulli(0.52) mean.
  double frac = w - 4, sigma = std::sqrt(frac * (1 - frac) / n);
  EXPECT_NEAR(double(sum) / n - 4, frac, 5 * sigma);
  // Deterministic: the same event, the same count.
  auto a = heap_estimate(sample(1000, 4000, 123)), b = heap_estimate(sample(1000, 4000, 123));
  EXPECT_EQ(a.count, b.count);
}

// The estimator against a simulated exponential sampler over a stream of objects of two sizes
// (what HotSpot does per thread): the estimates match the truth within their statistical margin.
TEST(JavaAllocEstimate, RecoversTheTruthOfASimulatedSampler) {
  const uint64_t interval = 32768;
  std::mt19937_64 rng(42);
  std::exponential_distribution<double> gap(1.0 / double(interval));
  double next = gap(rng), pos = 0;
  int64_t count[2] = {0, 0}, bytes[2] = {0, 0};
  const uint64_t sizes[2] = {24, 1016};
  const int n = 400000;  // of each size, interleaved: 9.6 MB and 406 MB
  uint64_t t = 1;
  for (int i = 0; i < 2 * n; ++i) {
    int k = i & 1;
    double end = pos + double(sizes[k]);
    if (next < end) {  // a point falls in this object: reported once; the next gap from the point
      auto e = heap_estimate(sample(sizes[k], interval, t++));
      count[k] += e.count;
      bytes[k] += e.bytes;
      while (next < end) next += gap(rng);
    }
    pos = end;
  }
  for (int k = 0; k < 2; ++k) {
    double p = java_sample_probability(sizes[k], interval);
    double sd_count = std::sqrt(n * (1 - p) / p);  // sum of n Bernoulli(p)/p
    EXPECT_NEAR(double(count[k]), n, 5 * sd_count + 1) << sizes[k];
    EXPECT_NEAR(double(bytes[k]), double(n) * double(sizes[k]), 5 * sd_count * double(sizes[k])) << sizes[k];
  }
}

}  // namespace
}  // namespace erkit::model
