// er_print lines / lsummary / pcs / psummary (seed-spec §7.6): source lines and PCs sorted
// by the current sort metric, with one aggregate row per function without line
// information and per collapsed load object; as text and as JSON (docs/er_print.md).
#pragma once
#include <set>
#include <string>
#include <vector>

#include "model/pc_line_metrics.h"
#include "views/function_views.h"
#include "views/json.h"

namespace erkit::views {

struct LineViewOptions {
  std::set<model::ObjId> collapsed;  // load objects shown as one row each (object_select)
};

// The collapsed load objects of the profile (object_select, object_hide).
LineViewOptions line_view_options(const model::Profile& p);

std::string render_lines(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                         const NameOptions& names, const LineViewOptions& o = {});
std::string render_line_summaries(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                  size_t limit, const NameOptions& names, const LineViewOptions& o = {});
std::string render_pcs(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                       const NameOptions& names, const LineViewOptions& o = {});
std::string render_pc_summaries(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                size_t limit, const NameOptions& names, const LineViewOptions& o = {});

// {"sort":Sort,"columns":[Column...],"rows":[LineRow...]} (lines) or PcRow (pcs); the first
// row is <Total>; the rows add up to it (an "unknown" row, <Unknown>, holds what has no PC or line).
// LineRow: {"name","kind":"total"|"line"|"no_line"|"object"|"unknown","function"?,
// "source_file"?,"line"?,"load_object"?,"values":[...]}; PcRow: {"name","kind":"total"|"pc"|
// "object","function"?,"offset"?,"address"?,"source_file"?,"line"?,"load_object"?,"values"}.
json::Value lines_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                       const NameOptions& names, const LineViewOptions& o = {});
json::Value pcs_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                     const NameOptions& names, const LineViewOptions& o = {});
// {"sort":Sort,"items":[{...the row fields without "values"...,"metrics":[{"flavor","metric",
// "title","unit","value","percent"}]}]}: one metric per value (not percent) column.
json::Value line_summaries_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                size_t limit, const NameOptions& names, const LineViewOptions& o = {});
json::Value pc_summaries_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                              size_t limit, const NameOptions& names, const LineViewOptions& o = {});

}  // namespace erkit::views
