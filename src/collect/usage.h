// collect's informational output: usage with clock-profiling limits (no arguments), the
// README (-R), and the dry-run description (-n).
#pragma once
#include <cstdio>
#include <string>

#include "collect/launch.h"
#include "collect/options.h"

namespace erkit::collect {
void print_usage(FILE* out);
void print_readme(FILE* out);
void print_dry_run(FILE* out, const Options& o, const LaunchContext& ctx, const std::string& experiment);
// Checks, before anything is created, that the group can be written: its name, its directory,
// and (if it exists) its header line.
bool check_group(const std::string& group, const std::string& directory, std::string* error);
// Appends the experiment to a group file (creating it with its header line).
bool add_to_group(const std::string& group, const std::string& directory, const std::string& experiment,
                  std::string* error);
}  // namespace erkit::collect
