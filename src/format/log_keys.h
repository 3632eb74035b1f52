// The vocabulary of the experiment's text files ("log" and "map"; line syntax in
// experiment_format.h): event names, key names and setting names, defined once for the writers
// (the collector, collect, er_kernel, the host writer) and the readers (reader/experiment.cc,
// reader/lifecycle.cc, the model and views reading RunLog::settings). Plain character arrays:
// usable in the collector (no libstdc++ runtime) and as `const char*` everywhere.
// A name changed here changes the format: keep old names readable (docs/experiment-format.md).
#pragma once

namespace erkit::format::log_event {
// log
inline constexpr char kCollect[] = "collect";        // collect's command line and settings
inline constexpr char kSetting[] = "setting";        // name= and the setting's own keys
inline constexpr char kHwc[] = "hwc";                // one hardware counter of -h, in -h order
inline constexpr char kStart[] = "start";            // the process's identity (collector)
inline constexpr char kTarget[] = "target";          // the target's pid (collect)
inline constexpr char kThreadStart[] = "thread_start";
inline constexpr char kThreadEnd[] = "thread_end";
inline constexpr char kTask[] = "task";              // er_kernel: a sampled task
inline constexpr char kFile[] = "file";              // I/O trace: a descriptor's path
inline constexpr char kMpiRank[] = "mpi_rank";
inline constexpr char kWarning[] = "warning";
inline constexpr char kExit[] = "exit";              // the collector saw the process exit
inline constexpr char kEnd[] = "end";                // collect saw how the target ended
inline constexpr char kDescendant[] = "descendant";
inline constexpr char kDescendantOf[] = "descendant_of";
inline constexpr char kExecFailed[] = "exec_failed";
inline constexpr char kSpawnFailed[] = "spawn_failed";
inline constexpr char kPause[] = "pause";
inline constexpr char kResume[] = "resume";
inline constexpr char kLimitReached[] = "limit_reached";
inline constexpr char kStoppedAfterExec[] = "stopped_after_exec";
// map
inline constexpr char kLoad[] = "load";
inline constexpr char kUnload[] = "unload";
inline constexpr char kFunctionLoad[] = "function_load";
inline constexpr char kFunctionUnload[] = "function_unload";
}  // namespace erkit::format::log_event

namespace erkit::format::log_key {
inline constexpr char kName[] = "name";  // setting's name; hwc, function_load, end (signal name)
inline constexpr char kVersion[] = "version";
inline constexpr char kCommand[] = "command";
inline constexpr char kTarget[] = "target";
inline constexpr char kArgs[] = "args";
inline constexpr char kCwd[] = "cwd";
inline constexpr char kIndex[] = "index";
inline constexpr char kPid[] = "pid";
inline constexpr char kPpid[] = "ppid";
inline constexpr char kExe[] = "exe";
inline constexpr char kHost[] = "host";
inline constexpr char kArch[] = "arch";
inline constexpr char kOs[] = "os";
inline constexpr char kNcpus[] = "ncpus";
inline constexpr char kPagesize[] = "pagesize";
inline constexpr char kRealtimeNs[] = "realtime_ns";
inline constexpr char kMonotonicNs[] = "monotonic_ns";
inline constexpr char kClockIntervalNs[] = "clock_interval_ns";
inline constexpr char kTid[] = "tid";
inline constexpr char kStart[] = "start";  // thread_start: the start routine
inline constexpr char kComm[] = "comm";
inline constexpr char kId[] = "id";
inline constexpr char kFd[] = "fd";
inline constexpr char kPath[] = "path";
inline constexpr char kRank[] = "rank";
inline constexpr char kSize[] = "size";
inline constexpr char kCode[] = "code";
inline constexpr char kText[] = "text";
inline constexpr char kErrno[] = "errno";
inline constexpr char kHow[] = "how";
inline constexpr char kStatus[] = "status";
inline constexpr char kSignal[] = "signal";
inline constexpr char kBytes[] = "bytes";
inline constexpr char kLimitReached[] = "limit_reached";
inline constexpr char kKind[] = "kind";
inline constexpr char kLineage[] = "lineage";
inline constexpr char kParentPid[] = "parent_pid";
inline constexpr char kFollowed[] = "followed";
inline constexpr char kFailed[] = "failed";
inline constexpr char kReason[] = "reason";
inline constexpr char kAdopted[] = "adopted";
inline constexpr char kUnseen[] = "unseen";
// settings' own keys
inline constexpr char kIntervalNs[] = "interval_ns";
inline constexpr char kIntervalMs[] = "interval_ms";
inline constexpr char kOn[] = "on";
inline constexpr char kValue[] = "value";
inline constexpr char kThreads[] = "threads";
inline constexpr char kRegex[] = "regex";
inline constexpr char kInitially[] = "initially";
inline constexpr char kMb[] = "mb";
inline constexpr char kMachine[] = "machine";
inline constexpr char kEmulator[] = "emulator";
inline constexpr char kSysroot[] = "sysroot";
inline constexpr char kCore[] = "core";
// er_kernel's setting and task lines
inline constexpr char kCpus[] = "cpus";
inline constexpr char kChosen[] = "chosen";
// hwc lines (one counter of -h)
inline constexpr char kPerf[] = "perf";
inline constexpr char kDescription[] = "description";
inline constexpr char kInterval[] = "interval";
inline constexpr char kUnit[] = "unit";
inline constexpr char kMemory[] = "memory";
inline constexpr char kDataspace[] = "dataspace";
// map
inline constexpr char kBias[] = "bias";
inline constexpr char kLo[] = "lo";
inline constexpr char kHi[] = "hi";
inline constexpr char kBuildId[] = "buildid";
inline constexpr char kAlias[] = "alias";
inline constexpr char kSource[] = "source";
inline constexpr char kVaddr[] = "vaddr";
}  // namespace erkit::format::log_key

// The names of "setting" lines (their name= value).
namespace erkit::format::log_setting {
inline constexpr char kClock[] = "clock";  // interval_ns=
inline constexpr char kSample[] = "sample";  // interval_ms=
inline constexpr char kHeap[] = "heap";    // on=
inline constexpr char kSync[] = "sync";    // value=
inline constexpr char kIo[] = "io";        // on=
inline constexpr char kMpi[] = "mpi";      // on=
inline constexpr char kFollow[] = "follow";  // value= regex=
inline constexpr char kArchive[] = "archive";  // value=
inline constexpr char kEmulation[] = "emulation";  // machine= emulator= sysroot=
inline constexpr char kKernel[] = "kernel";  // er_kernel; threads=
inline constexpr char kClockSource[] = "clock_source";
inline constexpr char kSampler[] = "sampler";
inline constexpr char kSyncThreshold[] = "sync_threshold";
inline constexpr char kSampleSignal[] = "sample_signal";  // signal=
inline constexpr char kPauseSignal[] = "pause_signal";    // signal= initially=
inline constexpr char kStopAfterExec[] = "stop_after_exec";  // on=
inline constexpr char kLimit[] = "limit";                 // mb=
inline constexpr char kClockDataspace[] = "clock_dataspace";  // on=
}  // namespace erkit::format::log_setting

// Issue 18: names that were still spelled in place by their writer and reader.
namespace erkit::format::log_event {
inline constexpr char kCpuClock[] = "cpu_clock";  // collect: the CPUs' clock rate (khz= source= cpus=)
}  // namespace erkit::format::log_event

namespace erkit::format::log_key {
// cpu_clock lines (source= is kSource, cpus= is kCpus)
inline constexpr char kKhz[] = "khz";
// the outside sampler's baselines: "setting name=sampler where=collect" and thread_end
inline constexpr char kWhere[] = "where";
inline constexpr char kAtNs[] = "at_ns";        // CLOCK_MONOTONIC when the values were read
inline constexpr char kExecNs[] = "exec_ns";    // on-CPU time (schedstat)
inline constexpr char kDelayNs[] = "delay_ns";  // run-queue delay (schedstat)
inline constexpr char kBy[] = "by";             // thread_start/_end written by collect: by=collect
// start
inline constexpr char kClockResNs[] = "clock_res_ns";
// limit_reached (the limit in bytes)
inline constexpr char kLimit[] = "limit";
// a setting line without name=: threads adopted at start
inline constexpr char kPreexistingThreads[] = "preexisting_threads";
// function_load: line-table entries recorded
inline constexpr char kLines[] = "lines";
// the sync_threshold setting
inline constexpr char kMode[] = "mode";  // "calibrated", "all" or "value"
inline constexpr char kUncontendedMeanNs[] = "uncontended_mean_ns";
inline constexpr char kNs[] = "ns";
}  // namespace erkit::format::log_key

// Values of keys that readers compare with.
namespace erkit::format::log_value {
inline constexpr char kCollect[] = "collect";        // where= / by=: collect, not the collector
inline constexpr char kCalibrated[] = "calibrated";  // sync_threshold mode=
inline constexpr char kAll[] = "all";
inline constexpr char kValue[] = "value";
}  // namespace erkit::format::log_value
