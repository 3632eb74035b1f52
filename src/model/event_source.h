// A uniform view of every data kind's events: who, when, which stack, and the metric values
// each event contributes. Heap leaks are derived here: an allocation never freed by the end
// of the recording contributes leak and bleak at its allocation stack.
#pragma once
#include <cstdint>
#include <functional>

#include "model/metric_defs.h"
#include "reader/experiment.h"

namespace erkit::model {

struct EventRecord {
  uint64_t tstamp_ns;
  uint64_t stack_id;
  uint32_t tid;
  int32_t cpu;
  int64_t values[kMetricCount];
  uint32_t omp_state = 0;       // format::OmpState of a clock sample of an OpenMP program
  uint64_t omp_fork_stack = 0;  // its region's fork point
  bool blocked = false;         // a clock sample taken while the thread was off the CPU
};

// The OMP metric (kOmpWork, kOmpWait, kOmpOver) of an OpenMP state.
uint32_t omp_metric(uint32_t state);
// Whether the experiment recorded OpenMP states or regions.
bool has_omp_samples(const reader::Experiment& e);

void for_each_event(const reader::Experiment& e, const std::function<void(const EventRecord&)>& fn);
// The same without the clock samples (model/clock_scan.h sums those by stack), in the same order.
void for_each_traced_event(const reader::Experiment& e, const std::function<void(const EventRecord&)>& fn);

}  // namespace erkit::model
