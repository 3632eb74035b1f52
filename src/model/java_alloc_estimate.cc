#include "model/java_alloc_estimate.h"

#include <cmath>

namespace erkit::model {

namespace {

// A uniform number in [0, 1) fixed by the event (splitmix64 of its fields): the same experiment
// gives the same metrics every time it is read.
double event_uniform(const format::HeapEvent& h) {
  uint64_t z = h.tstamp_ns ^ (h.stack_id * 0x9e3779b97f4a7c15ULL) ^ (uint64_t(h.tid) << 32) ^ h.size;
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return double(z >> 11) * 0x1.0p-53;
}

}  // namespace

double java_sample_probability(uint64_t size, uint64_t interval) {
  if (interval == 0) return 1.0;
  return -std::expm1(-double(size) / double(interval));
}

HeapEstimate heap_estimate(const format::HeapEvent& h) {
  if (h.op != format::kHeapJavaSample) return {1, int64_t(h.size)};
  double p = java_sample_probability(h.size, h.interval);
  if (!(p > 0)) return {1, int64_t(h.size)};  // a size-0 object: as itself (never seen from a JVM)
  double w = 1.0 / p;
  double whole = std::floor(w);
  auto count = int64_t(whole) + (event_uniform(h) < w - whole ? 1 : 0);
  return {count, std::llround(double(h.size) * w)};
}

}  // namespace erkit::model
