// `compare on|off|delta|ratio` (issue 24; later Studio releases and gprofng have it): with
// two or more experiments or groups loaded, the function list shows each metric per side.
#include <fmt/format.h>

#include <algorithm>

#include "erprint/command_groups.h"
#include "model/compare/compare_model.h"
#include "views/compare_views.h"

namespace erkit::erprint {

namespace {

uint32_t side_count(const Session& s) {
  uint32_t n = 0;
  for (uint32_t side : s.exp_side) n = std::max(n, side + 1);
  return n;
}

}  // namespace

bool compare_active(const Session& s) {
  auto m = model::compare::parse_mode(s.compare_mode);
  return m && *m != model::compare::Mode::Off && side_count(s) >= 2;
}

CommandResult compare_functions(Session& s) {
  const auto mode = *model::compare::parse_mode(s.compare_mode);
  auto& p = s.profile();
  auto cols = views::compare_columns(s.function_columns());
  if (cols.empty()) return command_error("compare: no exclusive or inclusive metric in the function list");
  model::compare::Table t = model::compare::build_function_table(p, cols, s.exp_side, s.exp_run);
  std::vector<views::CompareSide> sides;
  for (uint32_t i = 0; i < t.sides; ++i)
    sides.push_back({i < s.side_paths.size() ? s.side_paths[i] : fmt::format("side {}", i + 1), t.runs[i]});
  if (s.format == OutputFormat::Json)
    return emit_report(s, "functions", "",
                       views::compare_functions_json(p, t, mode, sides, s.sort(), s.limit, s.names));
  return emit_text(s, "functions", views::render_compare_functions(p, t, mode, sides, s.sort(), s.limit, s.names));
}

void add_compare_commands(std::vector<Command>& t) {
  t.push_back({"compare", {}, 0, 1, "[on|off|delta|ratio]",
               "Compare the experiments or groups given: each side's values, or the difference or ratio to the first",
               [](Session& s, const std::vector<std::string>& a) {
                 if (!a.empty()) {
                   if (!model::compare::parse_mode(a[0]))
                     return command_error(
                         fmt::format("compare: unknown mode '{}' (expected on, off, delta or ratio)", a[0]));
                   s.compare_mode = a[0];
                 }
                 std::vector<std::string> warnings;
                 if (s.compare_mode != "off" && side_count(s) < 2)
                   warnings.push_back("compare: only one experiment or group is loaded; reports are not compared");
                 json::Value data = json::Value::object()
                                        .set("mode", s.compare_mode)
                                        .set("sides", int64_t(side_count(s)));
                 return emit_report(s, "compare", fmt::format("compare {}\n", s.compare_mode), std::move(data),
                                    std::move(warnings));
               }});
}

}  // namespace erkit::erprint
