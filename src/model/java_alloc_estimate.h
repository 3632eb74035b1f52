// What one heap event stands for in the Allocations and Bytes Allocated metrics: one block of
// its size, except a sampled Java object (format::kHeapJavaSample, collect -H on in a JVM;
// docs/java.md), which stands for the objects the JVM's heap sampler passed over.
//
// HotSpot's sampler (JVMTI SetHeapSamplingInterval, JDK 11+) picks points of each thread's stream
// of allocated bytes at exponentially distributed gaps of mean `interval`, and reports the object
// a point falls in; an object of s bytes is therefore reported with probability
// p = 1 - exp(-s / interval), and 1/p objects and s/p bytes per report are unbiased estimates of
// the objects and bytes allocated (the estimator of tcmalloc's and async-profiler's heap
// sampling). The count is rounded to an integer per event by a deterministic stochastic rounding
// (up with probability frac(1/p), from a hash of the event), which keeps sums unbiased.
#pragma once
#include <cstdint>

#include "format/experiment_format.h"

namespace erkit::model {

struct HeapEstimate {
  int64_t count = 0;  // objects (blocks) the event stands for
  int64_t bytes = 0;  // their bytes
};

// The probability that the sampler reports an object of `size` bytes at mean interval `interval`
// (1 for interval 0: every object).
double java_sample_probability(uint64_t size, uint64_t interval);

// The allocations event h stands for (an allocating event: heap_allocates(h)).
HeapEstimate heap_estimate(const format::HeapEvent& h);

}  // namespace erkit::model
