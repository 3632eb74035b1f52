#include "model/metric_defs.h"

namespace erkit::model {

namespace {
std::vector<MetricDef>& defs_storage() {
  using U = MetricUnit;
  using S = MetricSource;
  static std::vector<MetricDef> defs = {
      {"user", "User CPU Time", "User CPU", U::Nanoseconds, S::Clock},
      {"system", "System CPU Time", "Sys. CPU", U::Nanoseconds, S::Clock},
      {"wait", "Wait CPU Time", "Wait CPU", U::Nanoseconds, S::Clock},
      {"lock", "User Lock Time", "User Lock", U::Nanoseconds, S::Clock},
      {"text", "Text Page Fault Time", "Text Fault", U::Nanoseconds, S::Clock},
      {"data", "Data Page Fault Time", "Data Fault", U::Nanoseconds, S::Clock},
      {"owait", "Other Wait Time", "Other Wait", U::Nanoseconds, S::Clock},
      {"total", "Total LWP Time", "Total Time", U::Nanoseconds, S::Clock},
      {"wall", "Wall Clock Time", "Wall", U::Nanoseconds, S::Clock},
      {"alloc", "Allocations", "Allocs", U::Count, S::Heap},
      {"balloc", "Bytes Allocated", "Bytes Alloc", U::Bytes, S::Heap},
      {"leak", "Leaks", "Leaks", U::Count, S::Heap},
      {"bleak", "Bytes Leaked", "Bytes Leaked", U::Bytes, S::Heap},
      {"sync", "Sync Wait Time", "Sync Wait", U::Nanoseconds, S::Sync},
      {"syncn", "Sync Wait Count", "Sync Waits", U::Count, S::Sync},
      {"iotime", "I/O Time", "I/O Time", U::Nanoseconds, S::Io},
      {"ioreadbytes", "Read Bytes", "Read Bytes", U::Bytes, S::Io},
      {"iowritebytes", "Write Bytes", "Write Bytes", U::Bytes, S::Io},
      {"ioreadcnt", "Read Count", "Reads", U::Count, S::Io},
      {"iowritecnt", "Write Count", "Writes", U::Count, S::Io},
      {"ioothercnt", "Other I/O Count", "Other I/O", U::Count, S::Io},
      // MPI tracing (seed-spec §2.5, table 2-4).
      {"mpitime", "MPI Time", "MPI Time", U::Nanoseconds, S::Mpi},
      {"mpisend", "MPI Sends", "MPI Sends", U::Count, S::Mpi},
      {"mpibytesent", "MPI Bytes Sent", "MPI Bytes Sent", U::Bytes, S::Mpi},
      {"mpireceive", "MPI Receives", "MPI Receives", U::Count, S::Mpi},
      {"mpibytesrecv", "MPI Bytes Received", "MPI Bytes Recv.", U::Bytes, S::Mpi},
      {"mpiother", "Other MPI Calls", "Other MPI", U::Count, S::Mpi},
      // Kernel experiments (er_kernel, seed-spec §9): time, as the seed's clock profile is.
      {"kcycles", "KCPU Cycles", "KCPU Cycles", U::Nanoseconds, S::Kernel},
      {"kthr", "Kthr Time", "Kthr Time", U::Nanoseconds, S::KernelThread},
      // Hardware counters and software events (collect -h): the counter's name, event counts.
      {"cycles", "CPU Cycles", "CPU Cycles", U::Count, S::Hwc, true},
      {"insts", "Instructions Executed", "Instructions", U::Count, S::Hwc},
      {"cacheref", "Cache References", "Cache Refs", U::Count, S::Hwc},
      {"cachem", "Cache Misses", "Cache Misses", U::Count, S::Hwc},
      {"branches", "Branch Instructions", "Branches", U::Count, S::Hwc},
      {"brm", "Branch Mispredictions", "Branch Misses", U::Count, S::Hwc},
      {"buscycles", "Bus Cycles", "Bus Cycles", U::Count, S::Hwc},
      {"festalls", "Front-end Stall Cycles", "FE Stalls", U::Count, S::Hwc, true},
      {"bestalls", "Back-end Stall Cycles", "BE Stalls", U::Count, S::Hwc, true},
      {"refcycles", "Reference Cycles", "Ref. Cycles", U::Count, S::Hwc, true},
      {"dcr", "L1 D-cache Reads", "L1D Reads", U::Count, S::Hwc},
      {"dcm", "L1 D-cache Read Misses", "L1D Misses", U::Count, S::Hwc},
      {"dcw", "L1 D-cache Writes", "L1D Writes", U::Count, S::Hwc},
      {"icm", "L1 I-cache Misses", "L1I Misses", U::Count, S::Hwc},
      {"ecr", "Last-level Cache Reads", "LLC Reads", U::Count, S::Hwc},
      {"ecrm", "Last-level Cache Read Misses", "LLC Misses", U::Count, S::Hwc},
      {"ecwm", "Last-level Cache Write Misses", "LLC W. Misses", U::Count, S::Hwc},
      {"dtlbm", "Data TLB Misses", "DTLB Misses", U::Count, S::Hwc},
      {"itlbm", "Instruction TLB Misses", "ITLB Misses", U::Count, S::Hwc},
      {"cpu-clock", "CPU Clock", "CPU Clock ns", U::Count, S::Hwc},
      {"task-clock", "Task Clock", "Task Clock ns", U::Count, S::Hwc},
      {"page-faults", "Page Faults", "Page Faults", U::Count, S::Hwc},
      {"minor-faults", "Minor Page Faults", "Minor Faults", U::Count, S::Hwc},
      {"major-faults", "Major Page Faults", "Major Faults", U::Count, S::Hwc},
      {"context-switches", "Context Switches", "Ctx Switches", U::Count, S::Hwc},
      {"cpu-migrations", "CPU Migrations", "Migrations", U::Count, S::Hwc},
      {"alignment-faults", "Alignment Faults", "Align. Faults", U::Count, S::Hwc},
      {"emulation-faults", "Emulation Faults", "Emul. Faults", U::Count, S::Hwc},
      // OpenMP (seed-spec §2.8): each clock sample of an OpenMP program in exactly one of them.
      {"ompwork", "OMP Work", "OMP Work", U::Nanoseconds, S::Omp},
      {"ompwait", "OMP Wait", "OMP Wait", U::Nanoseconds, S::Omp},
      {"ompover", "OMP Overhead", "OMP Ovhd.", U::Nanoseconds, S::Omp},
      // Cycle-type counters as time (issue 19), in the order of kCyclesTimeFirst..Last.
      {"cycles", "CPU Cycles", "CPU Cycles", U::Nanoseconds, S::Hwc, true, true},
      {"festalls", "Front-end Stall Cycles", "FE Stalls", U::Nanoseconds, S::Hwc, true, true},
      {"bestalls", "Back-end Stall Cycles", "BE Stalls", U::Nanoseconds, S::Hwc, true, true},
      {"refcycles", "Reference Cycles", "Ref. Cycles", U::Nanoseconds, S::Hwc, true, true},
      // Raw counters (issue 19): kRawCounterFirst..Last, named when an experiment has one
      // (model/raw_counter_metrics.cc).
      {"", "", "", U::Count, S::Hwc, false, false, true}, {"", "", "", U::Count, S::Hwc, false, false, true},
      {"", "", "", U::Count, S::Hwc, false, false, true}, {"", "", "", U::Count, S::Hwc, false, false, true},
      {"", "", "", U::Count, S::Hwc, false, false, true}, {"", "", "", U::Count, S::Hwc, false, false, true},
      {"", "", "", U::Count, S::Hwc, false, false, true}, {"", "", "", U::Count, S::Hwc, false, false, true},
  };
  return defs;
}
}  // namespace

const std::vector<MetricDef>& metric_defs() { return defs_storage(); }

namespace detail {
// The raw-counter slots' names are set once each, by model/raw_counter_metrics.cc.
MetricDef& raw_counter_slot(uint32_t index) { return defs_storage().at(index); }
}  // namespace detail

const MetricDef& metric_def(uint32_t index) { return metric_defs().at(index); }

namespace {
struct Alias {
  std::string_view alias, name;
};
// The seed's Table 6-3 prints `unlock` for user lock time (transcription anomaly).
constexpr Alias kAliases[] = {{"unlock", "lock"}, {"ioread", "ioreadcnt"}, {"iowrite", "iowritecnt"}};

constexpr NamedOnlyMetric kNamedOnly[] = {
    {"ioreadtime", "Read Time", MetricUnit::Nanoseconds},
    {"iowritetime", "Write Time", MetricUnit::Nanoseconds},
    {"ioothertime", "Other I/O Time", MetricUnit::Nanoseconds},
    {"ioerrorcnt", "I/O Error Count", MetricUnit::Count},
    {"ioerrortime", "I/O Error Time", MetricUnit::Nanoseconds},
};
}  // namespace

std::string_view canonical_metric_name(std::string_view name) {
  for (const auto& a : kAliases)
    if (a.alias == name) return a.name;
  return name;
}

std::span<const NamedOnlyMetric> named_only_metrics() { return kNamedOnly; }

uint32_t metric_index(const std::string& name) {
  const std::string_view n = canonical_metric_name(name);
  if (n.empty()) return kMetricCount;  // a raw-counter slot not named yet
  const auto& d = metric_defs();
  for (uint32_t i = 0; i < d.size(); ++i)
    if (d[i].name == n) return i;  // a counter before its time form
  return kMetricCount;
}

uint32_t cycles_time_metric(uint32_t counter_metric) {
  if (counter_metric >= kMetricCount) return kMetricCount;
  const MetricDef& c = metric_def(counter_metric);
  if (!c.cycles || c.cycles_time) return kMetricCount;
  for (uint32_t i = kCyclesTimeFirst; i <= kCyclesTimeLast; ++i)
    if (metric_def(i).name == c.name) return i;
  return kMetricCount;
}

uint32_t cycles_counter_metric(uint32_t metric) {
  if (metric < kCyclesTimeFirst || metric > kCyclesTimeLast) return metric;
  return metric_index(metric_def(metric).name);
}

int64_t cycles_to_ns(int64_t cycles, uint64_t khz) {
  if (khz == 0 || khz > (uint64_t(1) << 40)) return 0;
  // ns = cycles * 1e6 / khz, without overflow: whole kilo-cycle periods, then the remainder.
  const bool neg = cycles < 0;
  const uint64_t c = neg ? uint64_t(0) - uint64_t(cycles) : uint64_t(cycles);
  const uint64_t ns = c / khz * 1'000'000 + (c % khz * 1'000'000 + khz / 2) / khz;
  return neg ? -int64_t(ns) : int64_t(ns);
}

}  // namespace erkit::model
