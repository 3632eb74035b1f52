// The function list in compare mode (er_print `compare on|delta|ratio`, docs/er_print.md
// "Comparing experiments"): each metric per side, side by side, or as the difference or ratio
// against the first side, with a noise estimate where a side has several runs.
#pragma once
#include <string>
#include <vector>

#include "model/compare/compare_model.h"
#include "views/function_views.h"
#include "views/json.h"

namespace erkit::views {

struct CompareSide {
  std::string label;  // the path given for the side
  uint32_t runs = 0;
};

// Columns of the function list as compare columns: each (flavour, metric) once (a value and
// its percentage are one column), attributed columns left out.
std::vector<model::compare::Column> compare_columns(const std::vector<ViewColumn>& cols);

// Rows sorted by the sort metric's largest mean over the sides (<Total> first), limited.
std::vector<const model::compare::Row*> sorted_compare_rows(const model::compare::Table& t, const SortSpec& sort,
                                                            size_t limit, const model::FunctionTable& ft);

std::string render_compare_functions(const model::Profile& p, const model::compare::Table& t, model::compare::Mode mode,
                                     const std::vector<CompareSide>& sides, const SortSpec& sort, size_t limit,
                                     const NameOptions& names);
json::Value compare_functions_json(const model::Profile& p, const model::compare::Table& t, model::compare::Mode mode,
                                   const std::vector<CompareSide>& sides, const SortSpec& sort, size_t limit,
                                   const NameOptions& names);

}  // namespace erkit::views
