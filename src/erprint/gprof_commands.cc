// `gprof` (seed-spec §12): GNU gprof's flat profile and call graph from any experiment.
#include "erprint/command_groups.h"
#include "views/gprof_report.h"

namespace erkit::erprint {

void add_gprof_commands(std::vector<Command>& t) {
  t.push_back({"gprof", {}, 0, 0, "", "Show a flat profile and call graph in GNU gprof's layout (CPU time)",
               [](Session& s, const auto&) {
                 uint64_t interval = 0;
                 for (const auto& e : s.profile().experiments())
                   if (e.log.clock_interval_ns) interval = e.log.clock_interval_ns;
                 json::Value data;
                 std::string text = views::render_gprof(s.profile(), s.names, interval, &data);
                 return emit_report(s, "gprof", std::move(text), std::move(data));
               }});
}

}  // namespace erkit::erprint
