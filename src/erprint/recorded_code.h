// er_print disasm of code without a file (issue 15 item 7): functions of the pseudo objects
// <dynamic functions> (collector_func_load) and <JIT-compiled code> (a JIT's jitdump or perf
// map), decoded from the bytes the experiment recorded.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "erprint/command_groups.h"

namespace erkit::erprint {

// The disasm listing of the dynamic function named a[0], or nullopt when no such function
// is loaded (the caller then looks for a function of an ELF object).
std::optional<CommandResult> run_recorded_disasm(Session& s, const std::vector<std::string>& a);

}  // namespace erkit::erprint
