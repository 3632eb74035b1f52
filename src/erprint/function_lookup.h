// Finding a function by the name a user typed, with the `N` rule of fsingle, csingle, source
// and disasm (seed-spec §7.1, §7.3): N picks the Nth function of that name; it is required on
// the er_print command line when the name is ambiguous, and asked for interactively.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "erprint/session.h"

namespace erkit::erprint {

// Every function whose long, short or mangled name (or "name (object)") equals `name`, in
// function-id order.
std::vector<model::FuncId> find_functions(Session& s, const std::string& name);

// The candidates as printed for the user: "  1) name (object) [address]" lines.
std::string candidate_list(Session& s, const std::vector<model::FuncId>& cands);

// Resolves `name` with optional N (args[1] of the command). On failure returns nullopt and
// sets *error ("no function named ...", "ambiguous ... give N", "N out of range").
std::optional<model::FuncId> choose_function(Session& s, const std::string& command, const std::string& name,
                                             const std::optional<std::string>& n, std::string* error);

}  // namespace erkit::erprint
