#include "erprint/trace_commands.h"

#include "erprint/commands.h"

namespace erkit::erprint {

void add_trace_commands(std::vector<Command>&) {}

}  // namespace erkit::erprint
