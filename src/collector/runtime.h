// The collector's global state and its one initialisation path. Modules never initialise
// themselves from constructors: runtime_init() starts them explicitly, in order (gprofng lost
// its clock profile when link-time optimisation reordered per-module constructors).
#pragma once
#include <stdint.h>

namespace erkit::collector {

struct Config {
  char experiment_dir[4096];
  uint64_t clock_interval_ns;   // 0: clock profiling off
  uint64_t size_limit_bytes;    // 0: unlimited
  int sample_interval_ms;       // periodic samples, 0: off
  bool heap_trace, io_trace;
  int sync_trace;               // -1 off, else threshold in microseconds (0 = all)
  int follow;                   // 0 off, 1 on, 2 all
  int sample_signal;            // -l, 0: none
  int pause_signal;             // -y, 0: none
  bool pause_signal_starts_recording;
};

struct Runtime {
  Config config;
  bool active;         // an experiment is open in this process
  int recording;       // atomic: 0 paused, 1 recording
  int log_fd, map_fd;
  uint64_t start_ns;   // CLOCK_MONOTONIC at experiment start
  int main_tid;
};

extern Runtime g_rt;

// Async-signal-safe: nanoseconds since the experiment started.
uint64_t now_ns();
uint64_t monotonic_ns();
// Async-signal-safe: appends a warning event to the log.
void log_warning(const char* code, const char* text);

// Idempotent; safe to call from interposers that run before the library constructor.
void runtime_init();
void runtime_fini(const char* how);

}  // namespace erkit::collector
