// Issue 16: periodic samples (-S) of a process sampled from outside (collect's sampler, and
// collect -P). The collector in the target takes them with getrusage() and /proc/self/*; a
// process that collect samples from outside has no collector thread to take them while it
// sleeps, so collect reads the same figures from /proc/<pid>/{stat,statm,status,io} and the
// process's CPU-time clock (clock_getcpuclockid) once per -S interval, and writes them as
// OverviewSampleRecords to "overview.outside" (docs/experiment-format.md). The reader merges
// them with the collector's samples in time order and numbers them 1..N.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>

#include "format/experiment_format.h"

namespace erkit::collect::outside {

// What the process-wide files say (proc(5)); parsers unit-tested on captured contents.
struct ProcessStat {
  uint64_t minflt = 0, majflt = 0, utime = 0, stime = 0, num_threads = 0;  // faults, ticks, threads
};
std::optional<ProcessStat> parse_process_stat(const char* text);
// "key: N" (or "key:\tN kB") of /proc/<pid>/status or io; nullopt when absent.
std::optional<int64_t> proc_field(const char* text, const char* key);

// The figures of one overview sample of process `pid` (reason, number and time left to the
// caller): user and system CPU time (the process clock, split as the kernel splits getrusage's,
// by the ticks of /proc/<pid>/stat), faults, threads, RSS and its peak, I/O bytes and blocks,
// and context switches (those of the live threads, plus the last counts seen of threads that
// ended: the kernel keeps no per-process total of them outside getrusage).
class OverviewReader {
 public:
  explicit OverviewReader(pid_t pid) : pid_(pid) {}
  bool read(format::OverviewSampleRecord* r);

 private:
  pid_t pid_;
  std::map<uint32_t, std::pair<int64_t, int64_t>> switches_;  // live threads' nvcsw, nivcsw
  int64_t ended_nvcsw_ = 0, ended_nivcsw_ = 0;
};

// When periodic samples are due: every interval from `start_ns` (CLOCK_MONOTONIC), never early;
// the times a stall missed are skipped (no burst after it), as in-process (collector/samples.cc).
class PeriodicDue {
 public:
  PeriodicDue(uint64_t start_ns, uint64_t interval_ns) : next_(start_ns + interval_ns), interval_(interval_ns) {}
  bool due(uint64_t now_ns) {
    if (!interval_ || now_ns < next_) return false;
    next_ += interval_;
    if (next_ <= now_ns) next_ = now_ns + interval_;
    return true;
  }

 private:
  uint64_t next_, interval_;
};

}  // namespace erkit::collect::outside
