// An experiment as read from disk: the run log, the load-object map, stacks and every data
// kind's events, plus the problems found while reading (each names the file and what is
// wrong). Reading never throws for bad data: whatever is readable is kept.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/experiment_format.h"

namespace erkit::reader {

struct LoadObject {
  std::string path;      // as recorded (relative paths are inside the experiment)
  std::string build_id;  // hex, empty if unknown
  uint64_t bias = 0, lo = 0, hi = 0;
  uint64_t load_ns = 0;
  uint64_t unload_ns = UINT64_MAX;  // UINT64_MAX: never unloaded
  // The file to read for symbols and code: the archived copy when the original changed or is
  // missing (see reader/load_object_archives.h), else empty (read `path`).
  std::string file;
  const std::string& symbol_file() const { return file.empty() ? path : file; }
};

// A function the program described with collector_func_load, or a JIT's perf-map symbol.
struct DynamicFunction {
  std::string name, alias, source;
  uint64_t vaddr = 0, size = 0;
  uint64_t load_ns = 0;
  uint64_t unload_ns = UINT64_MAX;
  std::vector<uint8_t> code;  // copied at load time (dyntext); empty if not available
  std::vector<std::pair<uint32_t, uint32_t>> lines;  // (offset from vaddr, source line), ascending
  bool from_jit_map = false;  // named by the JIT: perf-<pid>.map (no code, no lines) or jitdump (code, lines)
  // The source line of the instruction at `offset`, 0 if unknown.
  uint32_t line_at(uint64_t offset) const;
};

// A descendant process the experiment's process started (its log's "descendant" events).
struct DescendantEvent {
  uint64_t tstamp_ns = 0;
  std::string kind;     // fork, vfork, clone, exec, spawn, system, popen
  std::string lineage;  // "_f1", "_x2", ...
  int64_t pid = -1;
  bool followed = false;
  bool failed = false;
  std::string target;
};

struct ThreadInfo {
  uint32_t tid = 0;
  uint64_t start_ns = 0, end_ns = 0;
  uint64_t start_routine = 0;
};

// What recording cost the process, as the collector measured it (the exit line's cost_* fields).
struct CollectorCost {
  bool known = false;           // the exit line carried the fields
  uint64_t signals = 0;         // clock-profiling signals handled
  uint64_t signal_ns = 0;       // wall time inside their handler
  uint64_t helper_cpu_ns = 0;   // CPU time of the collector's threads
  uint64_t start_cpu_ns = 0;    // CPU time of its start (in the constructor)
  uint64_t exit_cpu_ns = 0;     // CPU time of its exit work
  uint64_t process_cpu_ns = 0;  // the process's CPU time at exit, collector included (0 unknown)
  uint64_t total_ns() const { return signal_ns + helper_cpu_ns + start_cpu_ns + exit_cpu_ns; }
};

struct RunLog {
  int format_version = 0;
  std::string collect_version, command, target, args, cwd;
  int64_t pid = -1, ppid = -1;
  std::string exe, host, arch, os;
  int64_t ncpus = 0, pagesize = 0;
  int64_t realtime_start_ns = 0;
  int64_t monotonic_start_ns = 0;  // CLOCK_MONOTONIC at the start: event times are relative to it
  uint64_t clock_interval_ns = 0;
  std::map<std::string, std::map<std::string, std::string>> settings;  // name -> fields
  std::vector<std::pair<uint64_t, std::string>> warnings;              // tstamp, text
  std::map<uint32_t, ThreadInfo> threads;
  // I/O trace file ids ("file" events): id -> fields (path, fd, how).
  std::map<uint32_t, std::map<std::string, std::string>> files;
  std::string end_how;        // "exit", "signal", ... ("" if collect never saw the end)
  int64_t end_status = -1;    // exit status or signal number
  std::string end_signal_name;
  std::string collector_exit; // how the collector saw the process end ("" if it did not)
  uint64_t last_event_ns = 0;
  bool limit_reached = false;
  uint64_t limit_reached_ns = 0;  // when -L stopped event recording (if limit_reached)
  int64_t exit_status = -1;   // the status the process gave exit(), -1 unknown
  // MPI ("mpi_rank" events): the rank in MPI_COMM_WORLD, from the launcher's environment
  // (collect) or MPI_Init (the collector, which also gives the world's size); -1 unknown.
  int64_t mpi_rank = -1, mpi_size = -1;
  CollectorCost cost;
  // Descendants: this experiment's own origin (empty for the founder) and its children.
  std::string lineage;        // "_f1_x1"
  std::string origin_kind;    // how this process was started: fork, exec, spawn, system, popen, clone
  int64_t parent_pid = -1;
  std::vector<DescendantEvent> children;
  bool exec_failed = false;   // its exec failed: the image never ran (an empty descendant)
  bool stopped_after_exec = false;  // -x
  // Recording switched off (pause) and on (resume), in time order: (tstamp, recording).
  std::vector<std::pair<uint64_t, bool>> recording_changes;
  // Kernel experiments (er_kernel): the "kernel" setting, whether threads were chosen (-T),
  // and the process id and command name of every task sampled ("task" events).
  bool kernel = false;
  bool kernel_threads = false;
  std::map<uint32_t, uint32_t> task_pid;
  std::map<uint32_t, std::string> task_comm;
  // collect -h: one entry per counter ("hwc" events: index, name, perf, description, interval,
  // unit, memory, dataspace), in -h order: HwcEventRecord::counter indexes it.
  std::vector<std::map<std::string, std::string>> hwc_counters;
  // The CPUs' clock rate at collect time ("cpu_clock" event: the harmonic mean of the CPUs'
  // rates, kHz; 0 in experiments without one): cycle-type counters are shown as time with it.
  uint64_t cpu_khz = 0;
};

// 96 bytes, no padding: 10 M samples are held in memory at once.
struct ClockSample {
  uint64_t tstamp_ns;
  uint64_t stack_id;
  uint32_t tid;
  int32_t cpu;
  uint32_t flags;
  uint32_t omp_state = 0;       // format::OmpState (kRecClockSampleOmp), 0 = none
  uint64_t ns[format::kMsCount];
  uint64_t omp_fork_stack = 0;  // the fork point of the sample's parallel region
};
static_assert(sizeof(ClockSample) == 96);

struct OverviewSample {
  format::OverviewSampleRecord rec;
};

struct Problem {
  std::string file;
  std::string message;
};

struct Experiment {
  std::string path;          // the .er directory
  std::string name;          // its last path component
  RunLog log;
  std::vector<LoadObject> objects;
  std::unordered_map<uint64_t, std::vector<uint64_t>> stacks;
  std::vector<ClockSample> clock;
  std::vector<OverviewSample> samples;
  std::vector<format::HeapEvent> heap;  // from any heap record kind
  std::vector<format::SyncEventRecord> sync;
  std::vector<format::IoEventRecord> io;
  std::vector<format::MpiEventRecord> mpi;
  std::vector<format::HwcEventRecord> hwc;  // counter overflows and dataspace records
  std::vector<format::OmpRegionRecord> omp_regions;  // OpenMP parallel regions (docs/openmp.md)
  std::vector<format::OmpTaskRecord> omp_tasks;      // OpenMP explicit tasks (docs/openmp.md)
  std::vector<std::string> notes;
  std::vector<std::string> descendants;  // paths of _*.er subdirectories
  std::vector<DynamicFunction> dynamic_functions;
  bool archived_on_open = false;  // archives/ was written by this open (abnormal end)
  std::vector<Problem> problems;
  uint64_t incomplete_records = 0;  // records a killed writer left unfinished

  // Duration covered by the data (ns), from the log and the last event seen.
  uint64_t duration_ns() const;
  // The object mapped at pc at time t (nullptr if none).
  const LoadObject* object_at(uint64_t pc, uint64_t tstamp_ns) const;
  // The dynamic function covering pc at time t (nullptr if none).
  const DynamicFunction* dynamic_at(uint64_t pc, uint64_t tstamp_ns) const;
};

struct OpenResult {
  std::optional<Experiment> experiment;
  std::string error;  // fatal: not an experiment at all
};

OpenResult open_experiment(const std::string& path);
// The descendant experiments (`_*.er` subdirectories) of the experiment at path, sorted.
std::vector<std::string> descendant_dirs(const std::string& path);
// True if path looks like an experiment directory (has a log file).
bool is_experiment_dir(const std::string& path);

}  // namespace erkit::reader
