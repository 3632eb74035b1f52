// Clock samples summed by call stack in one pass over the samples, split over the machine's
// cores (issue 24, "Analysis at scale"): what the function list, call tree, callers-callees
// and lines need from 10 M samples is one sum per distinct stack, not the samples. The
// sums come out in order of each stack's first sample, so the model built from them (and
// every report) is the same as when it adds up sample by sample.
#pragma once
#include <cstdint>
#include <vector>

#include "model/metric_defs.h"
#include "reader/experiment.h"

namespace erkit::model {

// Clock metrics a sample can carry: the 7 microstates, Total, Wall, KCPU Cycles, Kthr Time.
inline constexpr uint32_t kClockSumMetrics[] = {kUser, kSystem, kWaitCpu, kLock, kTextFault, kDataFault,
                                                kOtherWait, kTotal, kWall, kKcycles, kKthr};
inline constexpr uint32_t kClockSumCount = sizeof kClockSumMetrics / sizeof kClockSumMetrics[0];

struct ClockStackSum {
  uint64_t stack_id = 0;
  uint64_t first_ns = 0;           // time of its first sample
  int64_t values[kClockSumCount];  // indexed as kClockSumMetrics
};

struct ClockThreadSum {
  uint32_t tid = 0;
  uint64_t first_ns = 0, last_ns = 0, events = 0;
};

struct ClockScan {
  std::vector<ClockStackSum> stacks;    // in order of first sample
  std::vector<ClockThreadSum> threads;  // in order of first sample
  std::vector<int32_t> cpus;            // recorded CPUs (>= 0), in order of first sample
  bool omp_states = false;              // a sample carries an OpenMP state
  // A sample flagged in a system call: User and System time move between the stacks of a
  // thread's samples (model/mode_split.h), so sums by stack are not the per-stack values.
  bool mode_split = false;
};

// The metric values one sample contributes, indexed as kClockSumMetrics (the same values
// event_source.cc's clock events carry, OpenMP states aside).
void clock_sample_values(const reader::ClockSample& s, int64_t out[kClockSumCount]);

// Sums e.clock by stack id and by thread. workers 0: the machine's cores (at most 8), fewer
// for small experiments.
ClockScan scan_clock_samples(const reader::Experiment& e, unsigned workers = 0);

// Which clock samples count: an event filter or selection (er_print's filters, thread,
// time-range, sample and CPU selections), applied inside the parallel scan. Both functions
// are called from the scan's worker threads at the same time, so they may only read shared
// state. stack_context is asked once per distinct stack and worker; what it returns is handed
// to keep() with each sample of that stack (the model passes the resolved stack, whose
// functions FNAME() and LEAF need).
class ClockSampleFilter {
 public:
  virtual ~ClockSampleFilter() = default;
  virtual const void* stack_context(uint64_t stack_id) const = 0;
  virtual bool keep(const reader::ClockSample& s, const void* stack_context) const = 0;
};

// The same sums over the samples `filter` keeps: stacks (and threads, CPUs) in order of their
// first kept sample, which is the order a sample-by-sample pass applying the filter creates
// them in; first_ns is the time of that sample. Stacks without a kept sample are left out.
ClockScan scan_clock_samples(const reader::Experiment& e, const ClockSampleFilter& filter, unsigned workers = 0);

}  // namespace erkit::model
