// Callgrind format (valgrind.org/docs/manual/cl-format.html) for KCachegrind: self cost at
// each leaf's source line, inclusive cost on call lines at the caller's line. Sampled data
// has no call counts: "calls=" counts the distinct stacks through the call.
#include <fmt/format.h>

#include <map>
#include <set>

#include "common/version.h"
#include "exporters/export_util.h"
#include "exporters/exporters.h"

namespace erkit::exporters {
namespace {

using Costs = std::vector<int64_t>;

void add(Costs* dst, const model::StackAggregate& a, const std::vector<uint32_t>& metrics) {
  if (dst->empty()) dst->assign(metrics.size(), 0);
  for (size_t i = 0; i < metrics.size(); ++i) (*dst)[i] += a.values[metrics[i]];
}

std::string cost_text(const Costs& c) {
  std::string s;
  for (int64_t v : c) s += fmt::format(" {}", v);
  return s;
}

}  // namespace

std::string write_callgrind(const model::Profile& p, const Options& o, std::string* error) {
  if (o.metrics.empty()) {
    *error = "no metric to export";
    return "";
  }
  const auto& ft = p.functions();
  const auto& lines = p.resolver().lines();
  struct CallKey {
    uint32_t line;
    model::FuncId callee;
    auto operator<=>(const CallKey&) const = default;
  };
  struct FuncCosts {
    std::map<uint32_t, Costs> self;  // line -> cost
    std::map<CallKey, std::pair<Costs, uint64_t>> calls;
  };
  std::map<model::FuncId, FuncCosts> funcs;
  std::map<model::FuncId, uint32_t> first_line;  // a callee's own line for "calls=" targets
  Costs totals;
  std::vector<uint32_t> seen(ft.size(), UINT32_MAX);
  uint32_t serial = 0;
  for (const model::StackAggregate& a : p.aggregates()) {
    const auto& fr = a.stack->frames;
    bool any = false;
    for (uint32_t m : o.metrics) any |= a.values[m] != 0;
    if (!any) continue;
    ++serial;
    add(&totals, a, o.metrics);
    seen[fr.back().func] = serial;
    add(&funcs[fr[0].func].self[lines[fr[0].line].line], a, o.metrics);
    // Each function's outermost call in the stack carries its inclusive cost, so recursion is
    // counted once and the root's inclusive cost is the total.
    for (size_t k = fr.size(); k-- > 1;) {
      model::FuncId callee = fr[k - 1].func;
      first_line.try_emplace(callee, lines[fr[k - 1].line].line);
      if (seen[callee] == serial) continue;
      seen[callee] = serial;
      if (fr[k].func == callee) continue;
      auto& c = funcs[fr[k].func].calls[{lines[fr[k].line].line, callee}];
      add(&c.first, a, o.metrics);
      c.second++;
    }
  }
  std::string out = "# callgrind format\nversion: 1\n";
  out += fmt::format("creator: erkit {}\n", ERKIT_VERSION);
  if (!p.experiments().empty()) out += fmt::format("cmd: {}\n", p.experiments().front().log.command);
  out += "positions: line\nevents:";
  for (uint32_t m : o.metrics) out += " " + model::metric_def(m).name;
  out += "\n";
  for (uint32_t m : o.metrics) out += fmt::format("event: {} : {} ({})\n", model::metric_def(m).name, model::metric_def(m).display, unit_word(m));
  if (totals.empty()) totals.assign(o.metrics.size(), 0);
  out += "summary:" + cost_text(totals) + "\n";
  // Names are compressed: "(id) name" on first use, "(id)" after.
  std::map<std::string, uint32_t> ob_ids, fl_ids;
  std::map<model::FuncId, uint32_t> fn_ids;
  auto ob = [&](model::FuncId f) {
    const std::string& path = ft.object(ft.at(f).object).path;
    auto [it, inserted] = ob_ids.try_emplace(path.empty() ? "???" : path, uint32_t(ob_ids.size() + 1));
    return inserted ? fmt::format("({}) {}", it->second, it->first) : fmt::format("({})", it->second);
  };
  auto fl = [&](model::FuncId f) {
    std::string file = ft.at(f).source_file.empty() ? "???" : ft.at(f).source_file;
    auto [it, inserted] = fl_ids.try_emplace(file, uint32_t(fl_ids.size() + 1));
    return inserted ? fmt::format("({}) {}", it->second, it->first) : fmt::format("({})", it->second);
  };
  auto fn = [&](model::FuncId f) {
    auto [it, inserted] = fn_ids.try_emplace(f, uint32_t(fn_ids.size() + 1));
    return inserted ? fmt::format("({}) {}", it->second, views::function_display_name(ft, f, o.names))
                    : fmt::format("({})", it->second);
  };
  for (const auto& [f, c] : funcs) {
    out += fmt::format("\nob={}\nfl={}\nfn={}\n", ob(f), fl(f), fn(f));
    for (const auto& [line, cost] : c.self) out += fmt::format("{}{}\n", line, cost_text(cost));
    for (const auto& [key, cost] : c.calls) {
      out += fmt::format("cob={}\ncfi={}\ncfn={}\n", ob(key.callee), fl(key.callee), fn(key.callee));
      out += fmt::format("calls={} {}\n{}{}\n", cost.second, first_line[key.callee], key.line, cost_text(cost.first));
    }
  }
  return out;
}

}  // namespace erkit::exporters
