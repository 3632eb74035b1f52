// Exports of loaded experiments to files that other tools open. Every export is computed from
// the analysis model (model::Profile), so function names, inlined frames and source lines are
// the ones er_print shows:
//   pprof       profile.proto, gzip-compressed: one sample type per metric, locations with
//               inlined frames and lines, mappings with build ids (go tool pprof, speedscope…)
//   chrome      Chrome trace event JSON: the timeline, one track per thread; clock samples as
//               nested slices of the call stack, trace events (heap, sync, I/O) with stacks
//               (Perfetto UI, chrome://tracing)
//   speedscope  speedscope's own JSON: one time-ordered sampled profile per thread
//   folded      folded stacks "root;...;leaf value" (flamegraph.pl, inferno, speedscope)
//   callgrind   callgrind format (KCachegrind, QCachegrind)
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/profile.h"
#include "views/function_views.h"

namespace erkit::exporters {

enum class Format { Pprof, Chrome, Speedscope, Folded, Callgrind };

std::optional<Format> parse_format(const std::string& name);
const char* format_name(Format f);
// A default output file name for an export of the experiment `stem` (e.g. "test.1").
std::string default_output_name(Format f, const std::string& stem);

struct Options {
  // Metrics (model::MetricIndex) to export, in order. Empty: every metric with data. Formats
  // with a single value per sample (chrome slices aside) use the first.
  std::vector<uint32_t> metrics;
  views::NameOptions names;
};

// Resolves a comma-separated metric list ("user,system") against the profile: unknown names
// are errors; an empty list gives every metric with data (user first when present).
std::optional<std::vector<uint32_t>> select_metrics(const model::Profile& p, const std::string& list, std::string* error);

// Each writer returns the file's bytes; `error` is set (and "" returned) only for failures.
std::string write_pprof(const model::Profile& p, const Options& o, std::string* error);
std::string write_chrome_trace(const model::Profile& p, const Options& o, std::string* error);
std::string write_speedscope(const model::Profile& p, const Options& o, std::string* error);
std::string write_folded(const model::Profile& p, const Options& o, std::string* error);
std::string write_callgrind(const model::Profile& p, const Options& o, std::string* error);

std::string write_export(const model::Profile& p, Format f, const Options& o, std::string* error);

}  // namespace erkit::exporters
