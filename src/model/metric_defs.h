// The one metric catalog (issue 18): the metrics erkit computes from recorded events (seed-spec
// table 6-3 names), their display names and units, which data kind each comes from, the aliases
// er_print accepts, and the names it knows but erkit does not compute. er_print's metric lists
// (erprint/metricspec/catalog.h), its column titles, the exporters, the analyzer and the
// generated completion all read this table. Values are kept as exact integers (nanoseconds,
// bytes, counts); views convert to seconds.
// Built alone as erkit_metric_catalog (no dependencies), so metricspec links it without the model.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
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
  // A cycle-type hardware counter: er_print's '.' shows it as time, '+' as the raw count.
  bool cycles = false;
  // The time form of a cycle-type counter (issue 19): its events over the experiment's CPU
  // clock rate, in ns. Named as the counter, not a keyword of its own: er_print's '.' on the
  // counter shows it (cycles_time_metric()).
  bool cycles_time = false;
  // A raw counter's metric (issue 19, model/raw_counter_metrics.h): a slot named at run time
  // after the event of the loaded experiments; unnamed (empty name) until then.
  bool raw = false;
};

// Names er_print accepts in metric lists (the I/O metrics of later Studio/gprofng releases)
// that erkit does not compute: a list naming one is accepted and warns "not recorded".
struct NamedOnlyMetric {
  std::string_view name, display;
  MetricUnit unit;
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
  // Cycle-type counters shown as time (issue 19): cycles, festalls, bestalls, refcycles.
  kCyclesTimeFirst, kCyclesTimeLast = kCyclesTimeFirst + 3,
  // Raw counters (libpfm4, sysfs, r<hex>, pmu/.../ spellings; issue 19): slots named after the
  // events of the loaded experiments (model/raw_counter_metrics.h), event counts.
  kRawCounterFirst, kRawCounterLast = kRawCounterFirst + 7,
  kMetricCount
};

const std::vector<MetricDef>& metric_defs();
const MetricDef& metric_def(uint32_t index);
// Index of a metric by er_print name (aliases accepted), or kMetricCount if unknown.
uint32_t metric_index(const std::string& name);
// The canonical name of an alias (unlock -> lock, ioread -> ioreadcnt); otherwise the input.
std::string_view canonical_metric_name(std::string_view name);
std::span<const NamedOnlyMetric> named_only_metrics();
// The time metric of a cycle-type counter metric (cycles -> its time form), kMetricCount for
// any other metric; and back (the counter metric of a time form, else the metric itself).
uint32_t cycles_time_metric(uint32_t counter_metric);
uint32_t cycles_counter_metric(uint32_t metric);
// Cycles to nanoseconds at a clock rate in kHz, rounded to the nearest ns (0 if khz is 0).
int64_t cycles_to_ns(int64_t cycles, uint64_t khz);

using MetricValues = std::vector<int64_t>;  // size kMetricCount

}  // namespace erkit::model
