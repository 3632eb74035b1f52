// Finding a function by the name a user typed, with the `N` rule of fsingle, csingle, source
// and disasm (seed-spec §7.1, §7.3): N picks the Nth function of that name; it is required on
// the er_print command line when the name is ambiguous, and asked for interactively.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "erprint/session.h"

namespace erkit::erprint {

// The order in which same-named candidates are numbered (N): by load object path, then by
// address, so that N does not depend on which function was sampled first.
void order_candidates(const model::FunctionTable& ft, std::vector<model::FuncId>* cands);

// Every function whose long, short or mangled name (or "name (object)", or the displayed
// "name (object:file.c)" of a static function sharing its name in one object) equals
// `name`, in candidate order.
std::vector<model::FuncId> find_functions(Session& s, const std::string& name);

// The candidates as printed for the user: "  1) name (object path, source file) 0xaddress" lines.
std::string candidate_list(Session& s, const std::vector<model::FuncId>& cands);

// Resolves `name` with optional N (args[1] of the command). On failure returns nullopt and
// sets *error ("no function named ...", "ambiguous ... give N", "N out of range").
std::optional<model::FuncId> choose_function(Session& s, const std::string& command, const std::string& name,
                                             const std::optional<std::string>& n, std::string* error);

}  // namespace erkit::erprint
