// er_print commands of the source views; see source_commands.cc.
#pragma once
#include <vector>

namespace erkit::erprint {
struct Command;
void add_source_commands(std::vector<Command>& table);
}  // namespace erkit::erprint
