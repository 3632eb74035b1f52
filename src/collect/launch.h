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
  std::string java_agent;      // libcollector-java.so when the target is profiled as a JVM (-j)
};

// Runs the target and returns collect's exit status (the target's, or 128+signal). When the
// target was killed by a signal, *killed_by is its number (else 0).
// The target gets the signal dispositions and mask collect inherited (an ignored SIGHUP stays
// ignored); SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to collect alone are passed on to it.
int run_target(const Options& o, const LaunchContext& ctx, std::string* error, int* killed_by = nullptr);

// Ends collect by `sig` with its default action (no core file of collect's own), as the target
// ended: a shell sees the same status, and a loop stops on the target's ^C. Returns only if the
// signal does not terminate (then collect exits with 128+sig).
void die_by_signal(int sig);

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
// `emulated`: the collector runs under qemu-user (q=1). Keys: format/collector_params.def.
std::string collector_params(const Options& o, bool emulated = false);

}  // namespace erkit::collect
