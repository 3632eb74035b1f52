// Disassembly of code that has no file: functions the program described with
// collector_func_load (their bytes copied to "dyntext") and JIT code from a jitdump file,
// decoded from the bytes recorded in the experiment (issue 15 item 7). Same layout as
// render_disasm: metrics, [line] or [   ?], address, instruction.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "views/annotated_listing.h"
#include "views/source_view.h"

namespace erkit::views {

struct RecordedCode {
  std::string name;    // the function
  std::string object;  // its pseudo load object: "<dynamic functions>", "<JIT-compiled code>"
  std::string source;  // source file its line table refers to ("" if none)
  uint64_t vaddr = 0;
  std::vector<uint8_t> code;
  std::vector<std::pair<uint32_t, uint32_t>> lines;  // (offset from vaddr, line), ascending
};

// False with *error when the code cannot be decoded (no bytes recorded, unknown machine).
// json_out: as render_disasm's, "load_object" the pseudo object.
bool render_recorded_disasm(const RecordedCode& c, const AnnotationMetrics& m, const SourceOptions& o,
                            std::string* out, std::string* error, json::Value* json_out = nullptr);

}  // namespace erkit::views
