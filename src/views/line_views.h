// er_print lines / lsummary / pcs / psummary (seed-spec §7.6): source lines and PCs sorted
// by the current sort metric, with one aggregate row per function without line
// information and per collapsed load object.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "model/pc_line_metrics.h"
#include "views/function_views.h"

namespace erkit::views {

struct LineViewOptions {
  std::set<model::ObjId> collapsed;  // load objects shown as one row each (object_select)
};

std::string render_lines(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                         const NameOptions& names, const LineViewOptions& o = {});
std::string render_line_summaries(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                  size_t limit, const NameOptions& names, const LineViewOptions& o = {});
std::string render_pcs(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                       const NameOptions& names, const LineViewOptions& o = {});
std::string render_pc_summaries(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                size_t limit, const NameOptions& names, const LineViewOptions& o = {});

}  // namespace erkit::views
