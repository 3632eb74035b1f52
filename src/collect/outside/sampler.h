// Issue 16: the microstate sampler in collect, outside the target (docs/clock-profiling.md,
// *The sampler in collect*). collect, which waits for the target anyway, looks at every thread
// of the founder process once per sampler period: the growth of its run-queue delay is Wait
// CPU; the rest of its off-CPU time (wall - on-CPU - delay) is User Lock, Text/Data Page Fault
// or Other Wait by the system call it sleeps in, at the stack unwound from outside
// (remote_unwind.h). The same accounting as the collector's in-process sampler
// (collector/microstates.cc), written to "profile.outside"/"stacks.outside"
// (format/outside_sampler.h). The target creates no collector thread for it.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <string>

namespace erkit::collect::outside {

class OutsideCpu;
class OverviewReader;
class PeriodicDue;
class OutsideFiles;
class ProcTask;
class RemoteUnwinder;

class OutsideSampler {
 public:
  // experiment: the founder's directory; interval_ns: the clock-profiling interval (the sampler
  // looks every interval, clamped to 10..100 ms as the in-process sampler).
  // adopt_unnamed: threads the collector never names in the log (raw clone(), libc's internal
  // threads) get their CPU time sampled by collect too (outside_cpu.h), named in the log by
  // collect ("thread_start tid= adopted=1 by=collect"). collect -P samples every thread itself.
  OutsideSampler(std::string experiment, pid_t pid, uint64_t interval_ns, bool adopt_unnamed = false);
  ~OutsideSampler();
  uint64_t period_ns() const { return period_ns_; }
  // Periodic samples (-S) taken by collect at its looks (overview.h): every interval_ns from
  // the collector's start; with start_and_end (collect -P, no collector in the process) also
  // the start and end samples the collector would write.
  void periodic_samples(uint64_t interval_ns, bool start_and_end);
  // One look at every thread (no-op until the collector has written its start line).
  void look();
  // The process ended (or is about to be reaped): flushes what is pending, writes the
  // sampler's cost line into the log. Idempotent.
  void finish();

  struct Track;

 private:
  bool started();
  // Reads what the collector appended to the log since the last call: its start line, the
  // threads it knows (thread_start). Records are written for those threads only: the reader
  // takes a thread the log never named for damage.
  void read_log();
  void look_at(uint32_t tid, Track& t, uint64_t now, bool is_new);
  void add(uint32_t tid, Track& t, uint64_t stack, uint32_t state, uint64_t ns, uint64_t now);
  void flush(uint32_t tid, Track& t, uint64_t now);
  void close_track(uint32_t tid, Track& t, uint64_t now);
  // A thread's end as it reported it (or the process's, from the zombie): its last stretch
  // since the last look, up to `at`, with its final on-CPU time and run-queue delay.
  void end_track(uint32_t tid, Track& t, uint64_t at, uint64_t exec_ns, uint64_t delay_ns);
  void adopt(uint32_t tid, uint64_t now);
  void overview_sample(uint32_t reason, uint64_t now);
  uint64_t sleep_stack(uint32_t tid, Track& t, int64_t nr, uint64_t sp, uint64_t pc, uint64_t pcount);

  std::string experiment_;
  pid_t pid_;
  uint64_t interval_ns_, period_ns_;
  uint64_t start_mono_ns_ = 0;  // the collector's experiment start (log "start" line)
  uint64_t last_look_ns_ = 0;
  uint64_t looks_ = 0, threads_seen_ = 0, unwinds_ = 0, cpu_ns_ = 0;
  bool finished_ = false;
  bool collector_ended_ = false;  // the log's exit line: nothing more to sample
  std::unique_ptr<ProcTask> proc_;
  std::unique_ptr<RemoteUnwinder> unwinder_;
  std::unique_ptr<OutsideFiles> files_;
  bool adopt_unnamed_ = false;
  bool clock_started_ = false;                  // the collector's clock_source line (its start done)
  std::unique_ptr<OutsideCpu> cpu_;             // threads collect adopted
  std::map<uint32_t, uint64_t> unknown_since_;
  std::set<uint32_t> adopted_;
  std::map<uint32_t, uint64_t> born_;  // thread_start time (CLOCK_MONOTONIC) of threads the collector started
  struct Final {
    uint64_t at_ns, exec_ns, delay_ns;
  };
  std::map<uint32_t, Final> ends_;  // thread_end lines with the thread's final counts, not yet applied
  std::set<uint32_t> ended_;        // threads closed by their end line (a zombie still listed)
  uint64_t exit_at_ns_ = 0;         // the collector's exit line (CLOCK_MONOTONIC)  // look at which an unnamed thread was first listed
  std::map<uint32_t, Track> tracks_;
  std::set<uint32_t> known_;                  // threads the collector named in the log
  std::map<uint32_t, uint64_t> first_listed_;  // listed, not yet known: the look before
  uint64_t log_offset_ = 0;
  int log_fd_ = -1;
  // The initial thread's baseline, taken by the collector as it started (its sampler line).
  struct {
    uint32_t tid = 0;
    uint64_t at_ns = 0, exec_ns = 0, delay_ns = 0;
  } initial_;
  std::string log_partial_;
  uint64_t sample_interval_ns_ = 0;
  bool start_and_end_samples_ = false;
  uint32_t sample_number_ = 0;
  std::unique_ptr<OverviewReader> overview_;
  std::unique_ptr<PeriodicDue> due_;
};

}  // namespace erkit::collect::outside
