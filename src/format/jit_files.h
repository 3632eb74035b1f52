// A JIT's own files that the collector copies into the experiment at the end of the process
// (issue 15 item 7), beside "jit.map" (experiment_format.h: kJitMapFile).
#pragma once
#include <cstdint>

namespace erkit::format {

// The jitdump file (perf's format, tools/perf/Documentation/jitdump-specification.txt:
// jit-<pid>.dump, which the JIT maps while it runs so that profilers find it), copied with the
// same checks as jit.map (a regular file of the program's user with one name); read by
// reader/jitdump.cc: names, code bytes and line tables of the compiled functions.
inline constexpr const char* kJitDumpFile = "jit.dump";
inline constexpr uint64_t kJitDumpMaxBytes = uint64_t(256) << 20;

}  // namespace erkit::format
