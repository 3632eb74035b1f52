#include "erprint/source_commands.h"

#include "erprint/commands.h"

namespace erkit::erprint {

void add_source_commands(std::vector<Command>&) {}

}  // namespace erkit::erprint
