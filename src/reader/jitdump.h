// perf's jitdump format (tools/perf/Documentation/jitdump-specification.txt): the file
// jit-<pid>.dump a JIT writes (and maps, so profilers find it) with every compiled function's
// name, address, code bytes and line table. The collector copies it into the experiment as
// "jit.dump" (collector/dynamic_code.cc); this reads it into dynamic functions that can be
// disassembled from their recorded code (issue 15 item 7).
#pragma once
#include <string>
#include <vector>

#include "reader/experiment.h"

namespace erkit::reader {

// Adds the JIT_CODE_LOAD records of a jitdump image (JIT_CODE_MOVE and JIT_CODE_DEBUG_INFO
// applied) to e.dynamic_functions; damage is reported in e.problems under `file`, what was
// read before it is kept. Returns the number of functions added.
size_t read_jitdump(Experiment& e, const std::vector<char>& data, const std::string& file);

}  // namespace erkit::reader
