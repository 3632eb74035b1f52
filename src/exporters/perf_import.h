// Importing a perf recording into an erkit experiment, so er_print (and every export) can
// analyse it: clock samples (cpu-clock, task-clock) become clock-profiling events of their
// threads, with user CPU time, or system CPU time when the sample hit the kernel; kernel
// frames are dropped (erkit attributes system time to the user call stack); frames in unknown
// code become <Unknown>. Load objects are placed from the recording's mmap events where it
// has them, so PCs are the addresses the program ran at, and symbolised from the files
// themselves, like a collected experiment.
#pragma once
#include <string>
#include <vector>

#include "exporters/perf_header.h"
#include "exporters/perf_script.h"

namespace erkit::exporters {

struct ImportResult {
  bool ok = false;
  std::string error;
  uint64_t samples = 0;     // imported
  uint64_t skipped = 0;     // samples of events that are not clocks
  uint64_t threads = 0;
  std::vector<std::string> warnings;
};

// Writes experiment `dir` (must not exist) from parsed perf script output.
// `run`: the recording's host, OS, CPUs and start time for the experiment's header.
ImportResult import_perf_script(const PerfScript& script, const std::string& dir, const std::string& command_line,
                                const PerfRunInfo& run = {});

// Runs `perf script` on a perf.data file; returns its text, or "" with *error set.
// `perf` is the program to run (the PERF environment variable, else "perf").
std::string run_perf_script(const std::string& perf_data, const std::string& perf, std::string* error);

// Runs `perf report --header-only` on a perf.data file; its text, "" if perf failed.
std::string run_perf_header(const std::string& perf_data, const std::string& perf);

// True if the file starts with perf.data's magic ("PERFILE2").
bool is_perf_data(const std::string& path);

}  // namespace erkit::exporters
