// Commands that describe the experiments rather than metrics: header, experiment_list,
// sample/thread/lwp/cpu lists, overview, statistics, objects, procstats.
#pragma once
#include <vector>

namespace erkit::erprint {
struct Command;
void add_info_commands(std::vector<Command>& table);
}  // namespace erkit::erprint
