// Reports about the experiments themselves rather than metrics: header, experiment_list,
// the sample/thread/LWP/CPU selection lists, overview, statistics, object_list and objects
// (seed-spec §7.9, §7.11, §7.14, §14.4-14.6, §14.25). Each has a text and a JSON form.
#pragma once
#include <string>
#include <vector>

#include "model/profile.h"
#include "model/selection/selection.h"
#include "views/json.h"

namespace erkit::views {

// header for experiment index x (0-based): notes, errors, warnings, target, settings, end.
std::string render_header(const model::Profile& p, uint32_t x);
json::Value header_json(const model::Profile& p, uint32_t x);

std::string render_experiment_list(const model::Profile& p, const selection::SelectionState& sel);
json::Value experiment_list_json(const model::Profile& p, const selection::SelectionState& sel);

// sample_list / thread_list / lwp_list / cpu_list: per experiment the selected objects and
// how many there are; threads and LWPs are followed by one line per thread.
std::string render_selection_list(const model::Profile& p, const selection::SelectionState& sel,
                                  selection::Target t);
json::Value selection_list_json(const model::Profile& p, const selection::SelectionState& sel, selection::Target t);

// One sample interval of an experiment: what overview shows and statistics sums.
struct SampleInterval {
  uint32_t number = 0;
  std::string reason, label;
  uint64_t start_ns = 0, end_ns = 0;
  bool has_usage = false;  // rusage fields below come from an overview record
  int64_t utime_ns = 0, stime_ns = 0, minflt = 0, majflt = 0, nvcsw = 0, nivcsw = 0, inblock = 0, oublock = 0;
  int64_t maxrss_kb = 0, rss_kb = 0, read_bytes = -1, write_bytes = -1;
  uint32_t nthreads = 0;
  int64_t microstate_ns[model::kTotal] = {};  // clock-profile time in the interval, by state
};
// The sample intervals of experiment x; an experiment without samples has one covering it all.
std::vector<SampleInterval> sample_intervals(const model::Profile& p, uint32_t x);

std::string render_overview(const model::Profile& p, const selection::SelectionState& sel,
                            const std::vector<uint32_t>& exps);
json::Value overview_json(const model::Profile& p, const selection::SelectionState& sel,
                          const std::vector<uint32_t>& exps);

// statistics: the sum over the selected samples of `exps`; with `each`, also one block per
// experiment.
std::string render_statistics(const model::Profile& p, const selection::SelectionState& sel,
                              const std::vector<uint32_t>& exps, bool each);
json::Value statistics_json(const model::Profile& p, const selection::SelectionState& sel,
                            const std::vector<uint32_t>& exps, bool each);

// object_list: expansion state and name of every load object with functions.
std::string render_object_list(const model::Profile& p);
json::Value object_list_json(const model::Profile& p);
// objects: load objects with path, build id and the problems met reading their symbols.
std::string render_objects(const model::Profile& p, size_t limit);
json::Value objects_json(const model::Profile& p, size_t limit);

}  // namespace erkit::views
