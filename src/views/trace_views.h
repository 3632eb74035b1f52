// Reports of the trace data kinds: heap leaks and allocations aggregated by call stack
// (er_print leaks/allocs, seed-spec §7.5 and the layout of §14.25), heap statistics, I/O
// activity per file, per opened file (virtual descriptor), per call stack and as statistics
// (gprofng's ioactivity, iodetail, iocallstack, iostat), and sync waits per lock object.
//
// Lists built from metrics (leaks, allocs, iocallstack) honour the session's filters, as the
// function list does. The per-file and per-object reports and the statistics read the recorded
// events of every loaded experiment directly.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "model/profile.h"
#include "views/function_views.h"

namespace erkit::views {

// One frame line of a trace report: "name + 0x0000001c" (the offset of the PC in its function;
// just "name" where the function's start is unknown).
std::vector<std::string> stack_frame_lines(const model::Profile& p, const model::ResolvedStack& s,
                                           const NameOptions& names);

// "Summary Results: Distinct Leaks = 2, Total Instances = 3, Total Bytes Leaked = 3072", then
// one block per distinct stack, most bytes first. limit 0 = all.
std::string render_leaks(model::Profile& p, size_t limit, const NameOptions& names);
std::string render_allocs(model::Profile& p, size_t limit, const NameOptions& names);
// Allocation and leak size histograms, totals, the largest and smallest blocks and the peak of
// live heap bytes per experiment.
std::string render_heap_stat(model::Profile& p);

std::string render_io_activity(model::Profile& p);  // per file name
std::string render_io_detail(model::Profile& p);    // per opened file (virtual descriptor)
std::string render_io_callstacks(model::Profile& p, size_t limit, const NameOptions& names);
std::string render_io_stat(model::Profile& p);

// Sync waits per synchronisation object, most wait time first; and the threshold in force.
std::string render_sync_stat(model::Profile& p, size_t limit);

}  // namespace erkit::views
