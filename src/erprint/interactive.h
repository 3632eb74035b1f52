// er_print's interactive mode: the "(er_print) " prompt with line editing, history
// (~/.er_print_history) and completion of command names through libedit when stdin is a
// terminal; plain line reading otherwise. Ends at quit or end of input (Ctrl-D).
#pragma once
#include "erprint/session.h"

namespace erkit::erprint {

// Returns false if a command failed while reading from a non-terminal (scripts piped in).
bool run_interactive(Session& s);

}  // namespace erkit::erprint
