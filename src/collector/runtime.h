// The collector's global state and its one initialisation path. Modules never initialise
// themselves from constructors: runtime_init() starts them explicitly, in order (gprofng lost
// its clock profile when link-time optimisation reordered per-module constructors).
//
// A process is in one of three states: not collected (no experiment in the environment),
// dormant (a descendant that -F =regex did not select: it records nothing but keeps track of
// its lineage so that its own descendants can be named and followed), or active (recording
// into its experiment directory).
#pragma once
#include <stdint.h>

namespace erkit::collector {

inline constexpr int kLineageMax = 512;

struct Config {
  char experiment_dir[4096];    // this process's experiment (the founder's, or founder/_f1.er)
  char founder_dir[4096];       // the experiment collect created: every descendant lies in it
  char lineage[kLineageMax];    // "" for the founder, "_f1_x2" for a descendant
  uint64_t clock_interval_ns;   // 0: clock profiling off
  uint64_t size_limit_bytes;    // 0: unlimited
  int sample_interval_ms;       // periodic samples, 0: off
  bool heap_trace, io_trace;
  bool mpi_trace;               // -m on: libcollector-mpi.so records through mpi_trace.cc
  int sync_trace;               // -1 off, else threshold in microseconds (0 = all)
  int follow;                   // 0 off, 1 on, 2 all
  char follow_regex[512];       // -F =regex ("" none)
  int sample_signal;            // -l, 0: none
  int pause_signal;             // -y, 0: none
  bool pause_signal_starts_recording;
  bool stop_after_exec;         // -x: raise SIGSTOP before main (founder only)
  bool dormant;                 // follows the lineage, records nothing
  bool emulated;                // runs under qemu-user (collect ran an aarch64 program on x86-64)
  bool clock_perf;              // cp=1: perf task-clock events, not POSIX CPU-time timers (perf_clock.h)
  bool clock_full_records;      // cf=1: 88-byte clock_sample records, not the compact ones (ERKIT_CLOCK_RECORDS=full)
};

struct Runtime {
  Config config;
  bool active;         // an experiment is open in this process
  bool tracking;       // the process belongs to a collected family (active or dormant)
  int recording;       // atomic: 0 paused (or ended), 1 recording
  int log_fd, map_fd;
  uint64_t start_ns;   // CLOCK_MONOTONIC at experiment start
  int main_tid;
  int pid;             // getpid() of this image (a vfork-like child sharing memory differs)
  int exit_status;     // status given to exit(), -1 unknown
  // A forked child under qemu-user: qemu 7.2 aborts a forked child of a multi-threaded process
  // that creates a thread, so the collector's helper threads are not started (docs/platforms.md).
  bool no_helper_threads;
};

extern Runtime g_rt;

// Async-signal-safe: nanoseconds since the experiment started.
uint64_t now_ns();
uint64_t monotonic_ns();
// Async-signal-safe: appends a warning event to the log.
void log_warning(const char* code, const char* text);
// Async-signal-safe: the mode for a file the collector creates in `dir` (an experiment, or
// the founder for a descendant's directory): the directory's own permission bits without
// execute and with owner read/write, so files follow the umask collect ran under (it created the
// directory 0755 & ~umask) whatever umask the program set since; never wider than 0644.
unsigned experiment_file_mode(const char* dir);
// Async-signal-safe: appends "<t> <event>" (no fields) to the log.
void log_event(const char* event);

// Idempotent; safe to call from interposers that run before the library constructor.
void runtime_init();
// Ends the experiment: end sample, clock tails, "exit how=<how>". Later calls do nothing.
void runtime_fini(const char* how);

// exec: the image ends if exec succeeds. Writes the exec sample and "exit how=exec", stops
// the modules that must not run across the call; runtime_exec_failed() undoes it.
void runtime_before_exec();
void runtime_exec_failed(int err);

// In a forked child (single-threaded, normal context): forget everything that belongs to the
// parent's experiment (descriptors, blocks, thread slots, stack and map tables). Afterwards
// the child is inactive until runtime_start_experiment() opens its own experiment.
void runtime_forget_parent_after_fork();
// Opens config.experiment_dir (which must exist with its log header), writes the start event
// and starts every module. Returns false (process stays inactive) on failure.
bool runtime_start_experiment();

// Called once by the data writer when the -L size limit stops event recording.
// Async-signal-safe.
void on_data_limit_reached(uint64_t bytes);

}  // namespace erkit::collector
