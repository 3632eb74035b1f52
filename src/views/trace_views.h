// Reports of the trace data kinds: heap leaks and allocations aggregated by call stack
// (er_print leaks/allocs, seed-spec §7.5 and the layout of §14.25), heap statistics, I/O
// activity per file, per opened file (virtual descriptor), per call stack and as statistics
// (gprofng's ioactivity, iodetail, iocallstack, iostat), and sync waits per lock object.
//
// Every report honours the session's filters and selections, as the function list does: the
// lists built from metrics (leaks, allocs, iocallstack) through the model's stack aggregates,
// the per-file and per-object reports and the statistics through model/trace_summaries.h,
// which applies the same Profile::selected test to each record.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "model/profile.h"
#include "views/function_views.h"
#include "views/json.h"

namespace erkit::views {

// One frame of a trace report's stack: the function and the offset of the PC in it.
struct StackFrame {
  std::string function;
  bool has_offset = false;  // false where the function's start is unknown
  uint64_t offset = 0;
  // "name + 0x0000001c", or just "name".
  std::string text() const;
  bool operator<(const StackFrame& o) const { return text() < o.text(); }
};
std::vector<StackFrame> stack_frames(const model::Profile& p, const model::ResolvedStack& s, const NameOptions& names);

// "Summary Results: Distinct Leaks = 2, Total Instances = 3, Total Bytes Leaked = 3072", then
// one block per distinct stack, most bytes first. limit 0 = all.
std::string render_leaks(const model::Profile& p, size_t limit, const NameOptions& names);
std::string render_allocs(const model::Profile& p, size_t limit, const NameOptions& names);
// Allocation and leak size histograms, totals, the largest and smallest blocks and the peak of
// live heap bytes per experiment.
std::string render_heap_stat(const model::Profile& p);

std::string render_io_activity(const model::Profile& p);  // per file name
std::string render_io_detail(const model::Profile& p);    // per opened file (virtual descriptor)
std::string render_io_callstacks(const model::Profile& p, size_t limit, const NameOptions& names);
std::string render_io_stat(const model::Profile& p);

// Sync waits per synchronisation object, most wait time first; and the threshold in force.
std::string render_sync_stat(const model::Profile& p, size_t limit);

// The same reports as JSON (docs/er_print.md, "JSON output"). Stack = [{"function","offset"?,
// "text"}...] leaf first; Histogram = SizeHistogram::to_json (trace_format.h).
// leaks/allocs: {"summary":{"distinct","instances","bytes"},"entries":[{"rank","count","bytes",
// "stack":Stack}]}.
json::Value leaks_json(const model::Profile& p, size_t limit, const NameOptions& names);
json::Value allocs_json(const model::Profile& p, size_t limit, const NameOptions& names);
// {"peaks":[{"experiment","pid","peak_bytes","peak_ns"}],"allocations":Histogram,"leaks":Histogram}
json::Value heap_stat_json(const model::Profile& p);
// {"total":IoRow,"files":[IoRow...]}, IoRow = {"name","time_ns","read_bytes","reads",
// "write_bytes","writes","other_calls","errors"} (+ iodetail: "file","iovfd","fd","experiment"?).
json::Value io_activity_json(const model::Profile& p);
json::Value io_detail_json(const model::Profile& p);
// {"total":IoSums,"stacks":[{"rank",IoSums...,"stack":Stack}]}, IoSums = {"time_ns",
// "read_bytes","reads","write_bytes","writes","other_calls"}.
json::Value io_callstacks_json(const model::Profile& p, size_t limit, const NameOptions& names);
// {"write":Op,"read":Op,"other":Op}, Op = {"calls","failed","time_ns","longest_ns","sizes"?:Histogram}
json::Value io_stat_json(const model::Profile& p);
// {"thresholds":[{"experiment","threshold_ns","mode","uncontended_mean_ns"?}],"total":{"wait_ns",
// "waits"},"objects":[{"name","experiment","kind","object","wait_ns","waits","max_wait_ns","threads"}]}
json::Value sync_stat_json(const model::Profile& p, size_t limit);

}  // namespace erkit::views
