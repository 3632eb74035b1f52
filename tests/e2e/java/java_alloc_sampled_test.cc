// Issue 21, sampled Java allocations (collect -H on in a JVM; docs/java.md): the JVM's heap
// sampler (JVMTI SetHeapSamplingInterval + SampledObjectAlloc) records one object per interval's
// worth of bytes on average, and the analysis scales each to the objects and bytes it stands for.
// The Alloc program allocates a known number of objects of one class in one method; the estimate
// must hold the truth within a margin derived from the number of objects and the sampling
// probability. Label "java" (tests/e2e/java/CMakeLists.txt).
#include <gtest/gtest.h>

#include <cmath>

#include "java_fixture.h"

namespace erkit::e2e {
namespace {

class JavaAllocSampled : public JavaTest {
 protected:
  // The heap records of the experiment: sampled Java objects (and their intervals), exact ones.
  void count_records(const std::string& exp, size_t* sampled, size_t* exact, uint64_t* interval) {
    *sampled = *exact = 0;
    *interval = 0;
    auto e = open(exp);
    ASSERT_TRUE(e);
    for (const auto& h : e->heap) {
      if (h.op == format::kHeapJavaSample) {
        ++*sampled;
        if (*interval == 0) *interval = h.interval;
        EXPECT_EQ(h.interval, *interval);
      }
      if (h.op == format::kHeapJavaAlloc) ++*exact;
    }
  }
};

// p: the probability that the sampler reports an object of s bytes at mean interval I.
double probability(double s, double interval) { return -std::expm1(-s / interval); }

TEST_F(JavaAllocSampled, EstimatesHoldTheKnownAllocationsWithinTheirStatisticalMargin) {
  const int n = 100000;  // make(): n byte[1000] (~100 MB); pair() -> cell(): 2n int[1]
  const double interval = 16384;
  auto c = run("cd " + path("") + " && env -u ERKIT_JAVA_ALLOCS ERKIT_JAVA_ALLOC_INTERVAL=16384 " + bin("collect") +
               " -H on -p off -o s.er " + java("Alloc " + std::to_string(n)));
  ASSERT_EQ(c.status, 0) << c.err << c.out;
  ASSERT_NE(c.out.find("done allocated"), std::string::npos) << c.out;
  // Sampled: far fewer records than objects (about 6,200 for make()), none of the exact kind.
  size_t sampled = 0, exact = 0;
  uint64_t iv = 0;
  count_records("s.er", &sampled, &exact, &iv);
  EXPECT_EQ(exact, 0u);
  EXPECT_EQ(iv, uint64_t(interval));
  EXPECT_GT(sampled, 1000u);
  EXPECT_LT(sampled, size_t(n) / 5);
  auto x = rows("-viewmode expert -metrics e.alloc:i.alloc:e.balloc:e.leak -functions s.er");
  ASSERT_TRUE(x.count("Alloc.make(int)")) << er_print("-viewmode expert -metrics e.alloc:e.balloc -functions s.er").out;
  // One object size in make() (a byte[1000] with its header): bytes per estimated object is that
  // size, up to the rounding of the counts.
  double count = at(x, "Alloc.make(int)", 0), bytes = at(x, "Alloc.make(int)", 2);
  ASSERT_GT(count, 0);
  double size = bytes / count;
  EXPECT_GE(size, 1000 * 0.995) << bytes << " / " << count;
  EXPECT_LE(size, 1024 * 1.005) << bytes << " / " << count;
  size = 8 * std::round(size / 8);  // object sizes are multiples of 8
  // Each of the n objects is reported with probability p and counted as 1/p: the estimate's
  // standard deviation is sqrt(n (1 - p) / p) (1.25 % of n here); 5 of them as the margin.
  double p = probability(size, interval);
  double sd = std::sqrt(n * (1 - p) / p);
  EXPECT_NEAR(count, n, 5 * sd) << "sd " << sd;
  EXPECT_NEAR(bytes, double(n) * size, 5 * sd * size);
  // cell(): 2n small arrays (int[1]: 24 bytes or less), each far less likely to be reported.
  double cells = at(x, "Alloc.cell(int)", 0), cell_bytes = at(x, "Alloc.cell(int)", 2);
  ASSERT_GT(cells, 0);
  double cell_size = 8 * std::round(cell_bytes / cells / 8);
  EXPECT_GE(cell_size, 16);
  EXPECT_LE(cell_size, 24);
  double pc = probability(cell_size, interval);
  EXPECT_NEAR(cells, 2 * n, 5 * std::sqrt(2 * n * (1 - pc) / pc));
  EXPECT_EQ(at(x, "Alloc.pair(int)", 0), 0);           // nothing of its own
  // The callee's, inclusive, and the few mallocs the JVM made under pair() (seen: 1, of 4 bytes).
  EXPECT_GE(at(x, "Alloc.pair(int)", 1), cells);
  EXPECT_LE(at(x, "Alloc.pair(int)", 1), cells + 16);
  EXPECT_EQ(at(x, "Alloc.make(int)", 3), 0);           // never leaks
}

// Without ERKIT_JAVA_ALLOC_INTERVAL: JVMTI's default interval, 512 KiB; ERKIT_JAVA_ALLOCS=off:
// no Java objects at all (the JVM's mallocs alone); a bad interval is said and the default used.
TEST_F(JavaAllocSampled, DefaultIntervalAndOff) {
  auto c = run("cd " + path("") + " && env -u ERKIT_JAVA_ALLOCS ERKIT_JAVA_ALLOC_INTERVAL=lots " + bin("collect") +
               " -H on -p off -o d.er " + java("Alloc 20000"));
  ASSERT_EQ(c.status, 0) << c.err << c.out;
  EXPECT_NE(c.err.find("ERKIT_JAVA_ALLOC_INTERVAL is not a number of bytes"), std::string::npos) << c.err;
  size_t sampled = 0, exact = 0;
  uint64_t iv = 0;
  count_records("d.er", &sampled, &exact, &iv);
  EXPECT_GT(sampled, 0u);  // 20 MB of byte[1000] alone: ~39 expected
  EXPECT_EQ(iv, 524288u);
  EXPECT_EQ(exact, 0u);
  auto o = run("cd " + path("") + " && ERKIT_JAVA_ALLOCS=off " + bin("collect") + " -H on -p off -o o.er " +
               java("Alloc 20000"));
  ASSERT_EQ(o.status, 0) << o.err << o.out;
  count_records("o.er", &sampled, &exact, &iv);
  EXPECT_EQ(sampled + exact, 0u);
  EXPECT_FALSE(open("o.er")->heap.empty());  // the JVM's mallocs are still traced
}

}  // namespace
}  // namespace erkit::e2e
