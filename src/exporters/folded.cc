// Folded stacks ("root;caller;leaf value", one distinct stack per line), the input of
// flamegraph.pl and inferno; speedscope opens it too. Values are the first selected metric in
// its integer unit (nanoseconds, bytes or a count).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "exporters/export_util.h"
#include "exporters/exporters.h"

namespace erkit::exporters {

std::string write_folded(const model::Profile& p, const Options& o, std::string* error) {
  if (o.metrics.empty()) {
    *error = "no metric to export";
    return "";
  }
  uint32_t metric = o.metrics.front();
  std::vector<std::string> names(p.functions().size());
  auto name = [&](model::FuncId f) -> const std::string& {
    if (names[f].empty()) {
      // ';' separates frames and a line ends at '\n': neither may appear inside a name.
      std::string n = views::function_display_name(p.functions(), f, o.names);
      std::replace(n.begin(), n.end(), ';', ':');
      std::replace(n.begin(), n.end(), '\n', ' ');
      names[f] = n;
    }
    return names[f];
  };
  // Stacks that differ only below function level (PCs, lines) fold into one line.
  std::map<std::string, int64_t> lines;
  for (const model::StackAggregate& a : p.aggregates()) {
    if (a.values[metric] == 0) continue;
    std::string key;
    for (size_t k = a.stack->frames.size(); k-- > 0;) {
      if (!key.empty()) key += ';';
      key += name(a.stack->frames[k].func);
    }
    lines[key] += a.values[metric];
  }
  std::string out;
  for (const auto& [k, v] : lines) out += fmt::format("{} {}\n", k, v);
  return out;
}

}  // namespace erkit::exporters
