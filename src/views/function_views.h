// The function list and the callers-callees panels (seed-spec §14.3, §14.25), as text in the
// manual's layout and as JSON (docs/er_print.md, "JSON output").
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/profile.h"
#include "model/query.h"
#include "views/json.h"
#include "views/table.h"

namespace erkit::views {

// Sort keys, the function order and values are the model's (model/query.h).
using SortSpec = model::SortSpec;

struct NameOptions {
  bool short_names = false;   // name short: without parameters
  bool mangled = false;       // name mangled
  bool show_object = false;   // :shared_object_name — always append the load object
};

// What follows a non-unique name in parentheses: the load object's name, and for functions
// sharing their name within one object (static functions of several source files) the
// source file ("prog:b.c"; the start address when the file is unknown).
std::string function_qualifier(const model::FunctionTable& ft, model::FuncId f);
std::string function_display_name(const model::FunctionTable& ft, model::FuncId f, const NameOptions& n);
std::string sort_description(const SortSpec& s);
json::Value sort_json(const SortSpec& s);

// Functions in list order (sorted, <Total> first, limited; limit 0 = all).
using model::sorted_functions;
// The value a function list shows for f in column (flavor, metric).
using model::function_value;

std::string render_function_list(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                 size_t limit, const NameOptions& names);
json::Value function_list_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                               size_t limit, const NameOptions& names);

// One panel: callers above the centre (marked '*'), callees below. `cols` use flavour 'a' for
// attributed values, 'e'/'i' for the functions' own exclusive/inclusive values.
std::string render_callers_callees_panel(const model::Profile& p, model::FuncId f, const std::vector<ViewColumn>& cols,
                                         const SortSpec& csort, const NameOptions& names);
json::Value callers_callees_panel_json(const model::Profile& p, model::FuncId f, const std::vector<ViewColumn>& cols,
                                       const SortSpec& csort, const NameOptions& names);
// write_callers_callees() hands the text over in chunks (a panel or more each).
void write_callers_callees(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                           const SortSpec& csort, size_t limit, const NameOptions& names,
                           const std::function<void(std::string_view)>& write);
std::string render_callers_callees(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                   const SortSpec& csort, size_t limit, const NameOptions& names);
json::Value callers_callees_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                 const SortSpec& csort, size_t limit, const NameOptions& names);

}  // namespace erkit::views
