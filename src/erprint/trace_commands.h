// er_print commands of the trace views; see trace_commands.cc.
#pragma once
#include <vector>

namespace erkit::erprint {
struct Command;
void add_trace_commands(std::vector<Command>& table);
}  // namespace erkit::erprint
