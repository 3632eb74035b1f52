// Running the target under the collector: experiment directory, log header, environment,
// fork/exec, waiting, and recording how the target ended.
#pragma once
#include <cstdio>
#include <string>

#include "collect/emulation.h"
#include "collect/options.h"

namespace erkit::collect {

struct LaunchContext {
  std::string collector_lib;   // absolute path of the collector library preloaded
  std::string mpi_lib;         // libcollector-mpi.so with -m on, else empty
  int mpi_rank = -1;           // rank from the MPI launcher's environment, -1 if none
  std::string program_path;    // resolved target executable
  std::string experiment;      // created directory
  std::string command_line;    // collect's own argv, for the log
  FILE* out = nullptr;         // collect's own output (-O), stdout when null
  Emulation emulation;         // a target of another machine runs under qemu-user
};

// Runs the target and returns collect's exit status (the target's, or 128+signal).
int run_target(const Options& o, const LaunchContext& ctx, std::string* error);

// Resolves `program` like execvp would. Empty on failure, with *error set.
std::string resolve_program(const std::string& program, std::string* error);
// Locates the collector library next to this collect binary (build tree or install prefix):
// libcollector.so when the options ask for heap, sync-wait or I/O tracing (it exports the
// tracing interposers), else libcollector-clock.so (the same collector without them).
// ERKIT_COLLECTOR_LIB overrides both. `subdir`: the collector built for another machine
// (lib/<subdir>/, e.g. lib/aarch64-linux-gnu/ for a target run under emulation).
std::string find_collector_library(const Options& o, std::string* error, const std::string& subdir = {});

// libcollector-mpi.so (-m on): beside `collector_lib`, else beside collect.
std::string find_mpi_library(const std::string& collector_lib, std::string* error);

// The environment parameter string for the collector (ERKIT_PARAMS).
std::string collector_params(const Options& o);

}  // namespace erkit::collect
