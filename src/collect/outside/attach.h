// Issue 16: collect -P <pid>, attaching to a running process without loading anything into it
// (docs/collect.md, *Attaching to a running process*). collect samples the process from
// outside: its CPU time by a perf task-clock event per thread (thread_clock.h, stacks unwound
// from the samples' register and stack copies), its off-CPU microstates by the outside
// sampler (sampler.h), its load objects from /proc/<pid>/maps; until the process ends, the -t
// duration elapses, or collect gets SIGINT/SIGTERM/SIGHUP. The process is never stopped,
// signalled or written to.
#pragma once
#include <sys/types.h>

#include <cstdio>
#include <string>
#include <vector>

#include "collect/options.h"

namespace erkit::collect::outside {

// Why the options or the process rule attaching out (empty: it can be tried). `warnings`
// receives what is ignored.
std::string attach_refusal(const Options& o, pid_t pid, std::vector<std::string>* warnings);

struct AttachResult {
  bool ok = false;
  std::string error;
  bool process_ended = false;  // the process ended while recorded (else collect detached)
  uint64_t samples = 0, lost = 0, threads = 0;
};

// Records the experiment (its directory already created, the log header written) until the
// end condition; `command_line` is collect's own.
AttachResult record_attached(const Options& o, pid_t pid, const std::string& experiment);

// The program and arguments of a running process (/proc/<pid>/exe, cmdline), for the header.
std::string process_exe(pid_t pid);
std::vector<std::string> process_args(pid_t pid);

}  // namespace erkit::collect::outside
