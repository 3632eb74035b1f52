// The summary panel of one function (fsummary, fsingle; seed-spec §7.3, §14.25): name,
// exclusive and inclusive values with percentages of every recorded metric, size, address,
// source file, object file, load object, mangled name and aliases.
#pragma once
#include <functional>
#include <string>
#include <string_view>
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
// write_call_tree() hands the text over in chunks as it is produced, never holding it whole.
void write_call_tree(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                     const NameOptions& names, const std::function<void(std::string_view)>& write);
std::string render_call_tree(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                             size_t limit, const NameOptions& names);
json::Value call_tree_json(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                           const NameOptions& names);

}  // namespace erkit::views
