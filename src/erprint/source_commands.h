// er_print commands of the source views; see source_commands.cc.
#pragma once
#include <vector>

namespace erkit::erprint {
struct Command;
void add_source_commands(std::vector<Command>& table);
class Session;
// Builds and keeps the line and PC metrics that source and disasm share (the analyzer computes
// them ahead of the first Source or Disassembly click).
void warm_annotation_metrics(Session& s);
}  // namespace erkit::erprint
