// The metrics erkit computes from recorded events (seed-spec table 6-3 names), their display
// names and units, and which data kind each comes from. Values are kept as exact integers
// (nanoseconds, bytes, counts); views convert to seconds.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace erkit::model {

enum class MetricUnit : uint8_t { Nanoseconds, Bytes, Count };
// Mpi: MPI tracing; Kernel: er_kernel's clock profile (KCPU Cycles); KernelThread: its -T
// threads (Kthr Time).
// Omp: clock samples of an OpenMP program (OMP Work / Wait / Overhead, docs/openmp.md).
enum class MetricSource : uint8_t { Clock, Heap, Sync, Io, Hwc, Mpi, Kernel, KernelThread, Omp };

struct MetricDef {
  std::string name;     // er_print keyword: user, system, ...
  std::string display;  // "User CPU Time"
  std::string short_display;  // column header, e.g. "User CPU"
  MetricUnit unit;
  MetricSource source;
};

// Indices into the value vector of every event and aggregate.
enum MetricIndex : uint32_t {
  kUser = 0, kSystem, kWaitCpu, kLock, kTextFault, kDataFault, kOtherWait, kTotal, kWall,
  kAlloc, kBalloc, kLeak, kBleak,
  kSync, kSyncN,
  kIoTime, kIoReadBytes, kIoWriteBytes, kIoReadCount, kIoWriteCount, kIoOtherCount,
  kMpiTime, kMpiSend, kMpiBytesSent, kMpiReceive, kMpiBytesRecv, kMpiOther,
  kKcycles, kKthr,
  // Hardware-counter profiling (collect -h, seed-spec §2.2): one metric per counter erkit knows
  // by name (collect/hwc_events.cc), named as the counter: event counts.
  kHwcFirst, kHwcLast = kHwcFirst + 27,
  kOmpWork, kOmpWait, kOmpOver,
  kMetricCount
};

const std::vector<MetricDef>& metric_defs();
const MetricDef& metric_def(uint32_t index);
// Index of a metric by er_print name (aliases accepted), or kMetricCount if unknown.
uint32_t metric_index(const std::string& name);

using MetricValues = std::vector<int64_t>;  // size kMetricCount

}  // namespace erkit::model
