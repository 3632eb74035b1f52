// The gprof report (er_print `gprof`, seed-spec §12): GNU gprof's flat profile and call graph
// (the layout of `gprof -b`) from any experiment, so users of gprof get the report they know
// without rebuilding with -pg. Times are CPU time (user + system) from clock profiling. There
// are no call counts in a sampled profile: the "calls" and "called" columns stay blank, as
// gprof leaves them for functions it has no counts for.
#pragma once
#include <string>

#include "model/profile.h"
#include "views/function_views.h"
#include "views/json.h"

namespace erkit::views {

// interval_ns: the clock-profiling interval, for the "Each sample counts as" line (0: none).
// data (JSON output): {"flat":[{"name","percent","cumulative","self"}],"graph":[{"index","name",
// "percent","self","children","parents":[Arc],"callees":[Arc]}]}, Arc = {"name","index","self",
// "children"}; times in ns.
std::string render_gprof(const model::Profile& p, const NameOptions& names, uint64_t interval_ns,
                         json::Value* data = nullptr);

}  // namespace erkit::views
