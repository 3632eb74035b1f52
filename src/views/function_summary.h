// The summary panel of one function (fsummary, fsingle; seed-spec §7.3, §14.25): name,
// exclusive and inclusive values with percentages of every recorded metric, size, address,
// source file, object file, load object, mangled name and aliases.
#pragma once
#include <string>
#include <vector>

#include "model/profile.h"
#include "views/function_views.h"
#include "views/json.h"

namespace erkit::views {

std::string render_function_summary(model::Profile& p, model::FuncId f, const std::vector<uint32_t>& metrics,
                                    const NameOptions& names);
json::Value function_summary_json(model::Profile& p, model::FuncId f, const std::vector<uint32_t>& metrics,
                                  const NameOptions& names);

// The dynamic call tree (gprofng's `calltree`): one line per distinct call path, children
// sorted by `sort` (by inclusive value of its metric), names indented two spaces per level.
std::string render_call_tree(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                             size_t limit, const NameOptions& names);
json::Value call_tree_json(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                           const NameOptions& names);

}  // namespace erkit::views
