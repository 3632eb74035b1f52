// er_kernel's recording: cpu-clock events on every online CPU (kernel mode, kernel call
// stacks) and, for threads chosen with -T, per-thread cpu-clock events plus the scheduler
// tracepoints; samples are drained from the ring buffers and written into a kernel
// experiment (ktest.N.er) as they come. See docs/er_kernel.md.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "format/host_writer.h"
#include "kernel/kallsyms.h"
#include "kernel/perf_ring.h"
#include "kernel/sched_states.h"
#include "kernel/tracefs.h"

namespace erkit::kernel {

struct ChosenThread {
  uint32_t pid = 0, tid = 0;  // -T pid/tid (pid 0: a kernel thread, tid its id)
};

struct RecorderOptions {
  uint64_t interval_ns = 10007000;
  std::vector<ChosenThread> threads;    // -T
  std::string command;                  // er_kernel's command line, for the log
  std::string target;                   // the load it runs, "" if none
  bool verbose = false;
};

class Recorder {
 public:
  Recorder() = default;
  ~Recorder();
  // Creates the experiment and opens every event (not yet enabled). False with *error set.
  bool open(const std::string& dir, const RecorderOptions& o, std::string* error);
  // Enables the events; from here on samples are recorded. Writes the log's start line.
  void start();
  // Drains every ring buffer (call every few tens of milliseconds).
  void poll();
  // True while some -T thread still exists (always false without -T).
  bool chosen_threads_alive();
  // Disables, drains, writes the symbols, thread table and end of the log.
  void stop(const std::string& how);
  const std::vector<std::string>& warnings() const { return warnings_; }
  uint64_t samples() const { return samples_; }
  uint64_t lost() const { return lost_; }
  uint64_t start_monotonic_ns() const { return start_ns_; }

 private:
  void take_callchain(const PerfSample& s);
  void write_sample(const PerfSample& s, uint32_t flags, int microstate);
  void record_cpu_sample(const PerfSample& s);
  void record_thread_sample(const PerfSample& s);
  void write_symbols();
  void warn(const std::string& text);
  uint64_t rel(uint64_t t) const { return t > start_ns_ ? t - start_ns_ : 0; }

  std::string dir_;
  RecorderOptions opt_;
  std::unique_ptr<format::HostExperimentWriter> w_;
  std::vector<std::unique_ptr<PerfEvent>> cpu_events_, thread_events_, sched_events_;
  Tracepoint switch_tp_, wakeup_tp_;
  std::unique_ptr<SchedStates> states_;
  std::map<uint32_t, uint32_t> task_pid_;  // tid -> pid of every task sampled
  std::map<uint32_t, bool> chosen_alive_;
  std::vector<std::string> warnings_;
  std::vector<uint64_t> pcs_;
  uint64_t start_ns_ = 0, samples_ = 0, lost_ = 0;
  bool stopped_ = false;
};

// CLOCK_MONOTONIC now, in nanoseconds (the clock every erkit experiment uses).
uint64_t monotonic_now_ns();

}  // namespace erkit::kernel
