// The dynamic call tree (gprofng's `calltree`): one line per distinct call path, children
// sorted by `sort` (by inclusive value of its metric), names indented two spaces per level.
// The trie is the model's (model/call_tree.h).
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/profile.h"
#include "views/function_views.h"
#include "views/json.h"

namespace erkit::views {

// write_call_tree() hands the text over in chunks as it is produced, never holding it whole.
void write_call_tree(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                     const NameOptions& names, const std::function<void(std::string_view)>& write);
std::string render_call_tree(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                             size_t limit, const NameOptions& names);
json::Value call_tree_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                           const NameOptions& names);

}  // namespace erkit::views
