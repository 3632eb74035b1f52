#include "catalog.h"

namespace erkit::metricspec {

namespace {
using enum ValueKind;
constexpr KnownMetric kKnown[] = {
    // Clock profiling (Table 6-3 timing metrics).
    {"user", "User CPU Time", Time, false},
    {"wall", "Wall Time", Time, false},
    {"total", "Total LWP Time", Time, false},
    {"system", "System CPU Time", Time, false},
    {"wait", "Wait CPU Time", Time, false},
    {"lock", "User Lock Time", Time, false},
    {"text", "Text Page Fault Time", Time, false},
    {"data", "Data Page Fault Time", Time, false},
    {"owait", "Other Wait Time", Time, false},
    // Synchronization tracing.
    {"sync", "Sync Wait Time", Time, false},
    {"syncn", "Sync Wait Count", Count, false},
    // MPI tracing.
    {"mpitime", "MPI Time", Time, false},
    {"mpisend", "MPI Sends", Count, false},
    {"mpibytesent", "MPI Bytes Sent", Count, false},
    {"mpireceive", "MPI Receives", Count, false},
    {"mpibytesrecv", "MPI Bytes Received", Count, false},
    {"mpiother", "Other MPI Calls", Count, false},
    // Heap tracing.
    {"alloc", "Allocations", Count, false},
    {"balloc", "Bytes Allocated", Count, false},
    {"leak", "Leaks", Count, false},
    {"bleak", "Bytes Leaked", Count, false},
    // I/O tracing (names in the style of later Studio/gprofng releases).
    {"ioreadbytes", "Read Bytes", Count, false},
    {"ioreadcnt", "Read Count", Count, false},
    {"ioreadtime", "Read Time", Time, false},
    {"iowritebytes", "Write Bytes", Count, false},
    {"iowritecnt", "Write Count", Count, false},
    {"iowritetime", "Write Time", Time, false},
    {"ioothercnt", "Other I/O Count", Count, false},
    {"ioothertime", "Other I/O Time", Time, false},
    {"ioerrorcnt", "I/O Error Count", Count, false},
    {"ioerrortime", "I/O Error Time", Time, false},
    {"iotime", "Total I/O Time", Time, false},
    // Common hardware counters; others are named at run time.
    {"cycles", "CPU Cycles", Cycles, true},
    {"insts", "Instructions Executed", Count, true},
    // The other counters collect -h knows by name (collect/hwc_events.cc, model/metric_defs.cc).
    {"cacheref", "Cache References", Count, true},
    {"cachem", "Cache Misses", Count, true},
    {"branches", "Branch Instructions", Count, true},
    {"brm", "Branch Mispredictions", Count, true},
    {"buscycles", "Bus Cycles", Count, true},
    {"festalls", "Front-end Stall Cycles", Count, true},
    {"bestalls", "Back-end Stall Cycles", Count, true},
    {"refcycles", "Reference Cycles", Count, true},
    {"dcr", "L1 D-cache Reads", Count, true},
    {"dcm", "L1 D-cache Read Misses", Count, true},
    {"dcw", "L1 D-cache Writes", Count, true},
    {"icm", "L1 I-cache Misses", Count, true},
    {"ecr", "Last-level Cache Reads", Count, true},
    {"ecrm", "Last-level Cache Read Misses", Count, true},
    {"ecwm", "Last-level Cache Write Misses", Count, true},
    {"dtlbm", "Data TLB Misses", Count, true},
    {"itlbm", "Instruction TLB Misses", Count, true},
    {"cpu-clock", "CPU Clock", Count, true},
    {"task-clock", "Task Clock", Count, true},
    {"page-faults", "Page Faults", Count, true},
    {"minor-faults", "Minor Page Faults", Count, true},
    {"major-faults", "Major Page Faults", Count, true},
    {"context-switches", "Context Switches", Count, true},
    {"cpu-migrations", "CPU Migrations", Count, true},
    {"alignment-faults", "Alignment Faults", Count, true},
    {"emulation-faults", "Emulation Faults", Count, true},
    // Kernel profiling (er_kernel) and OpenMP (proposals in the spec).
    {"kcycles", "KCPU Cycles", Time, false},  // er_kernel (seed §9): clock-profile time
    {"kthr", "Kthr Time", Time, false},
    {"ompwork", "OpenMP Work", Time, false},
    {"ompwait", "OpenMP Wait", Time, false},
    {"ompover", "OpenMP Overhead", Time, false},
};

struct Alias {
  std::string_view alias, name;
};
// The seed's Table 6-3 prints `unlock` for user lock time (transcription anomaly).
constexpr Alias kAliases[] = {{"unlock", "lock"}, {"ioread", "ioreadcnt"}, {"iowrite", "iowritecnt"}};
}  // namespace

std::span<const KnownMetric> known_metrics() { return kKnown; }

std::string_view canonical_name(std::string_view name) {
  for (const auto& a : kAliases)
    if (a.alias == name) return a.name;
  return name;
}

std::optional<KnownMetric> find_known(std::string_view name) {
  name = canonical_name(name);
  for (const auto& k : kKnown)
    if (k.name == name) return k;
  return std::nullopt;
}

bool is_static_name(std::string_view name) { return name == "name" || name == "size" || name == "address"; }

std::optional<AvailableMetric> standard_metric(std::string_view name) {
  auto k = find_known(name);
  if (!k) return std::nullopt;
  AvailableMetric m;
  m.name = std::string(k->name);
  m.display_name = std::string(k->display_name);
  m.kind = k->kind;
  m.hwc = k->hwc;
  return m;
}

}  // namespace erkit::metricspec
