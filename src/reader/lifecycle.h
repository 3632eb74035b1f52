// Reading the parts of an experiment that describe the process's life beyond its events:
// descendants, pause/resume, -L, exec failures (log events), and dynamically generated code
// (map "function_load" events, the dyntext file, a JIT's perf map). Internal to the reader.
#pragma once
#include "common/text_escape.h"
#include "reader/experiment.h"

namespace erkit::reader {

// Applies a log event of the life-cycle family to the run log; false if it is not one.
bool read_lifecycle_event(RunLog& log, const common::TextEvent& ev);
// Applies a map event about dynamic functions; false if it is not one.
bool read_dynamic_map_event(Experiment& e, const common::TextEvent& ev);
// Attaches dyntext code and line tables to the dynamic functions, and adds a JIT's symbols
// (jit.map; copied from /tmp/perf-<pid>.map on the first open if the process ended before the
// collector could copy it) and a JIT's jitdump functions with their code (jit.dump).
void read_dynamic_code(Experiment& e);

}  // namespace erkit::reader
