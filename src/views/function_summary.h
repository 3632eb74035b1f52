// The summary panel of one function (fsummary, fsingle; seed-spec §7.3, §14.25): name,
// exclusive and inclusive values with percentages of every recorded metric, size, address,
// source file, object file, load object, mangled name and aliases.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/profile.h"
#include "views/call_tree.h"  // the call tree was declared here
#include "views/function_views.h"
#include "views/json.h"

namespace erkit::views {

std::string render_function_summary(const model::Profile& p, model::FuncId f, const std::vector<uint32_t>& metrics,
                                    const NameOptions& names);
json::Value function_summary_json(const model::Profile& p, model::FuncId f, const std::vector<uint32_t>& metrics,
                                  const NameOptions& names);

}  // namespace erkit::views
