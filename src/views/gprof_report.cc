#include "views/gprof_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

namespace erkit::views {

using model::FuncId;

namespace {

int64_t cpu(const int64_t* v) { return v[model::kUser] + v[model::kSystem]; }
double sec(int64_t ns) { return double(ns) / 1e9; }

struct Arc {
  FuncId other;
  int64_t self = 0;   // the callee's own time in calls on this arc
  int64_t total = 0;  // the callee's inclusive time in calls on this arc (attributed)
};

}  // namespace

std::string render_gprof(const model::Profile& p, const NameOptions& names, uint64_t interval_ns, json::Value* data) {
  json::Value flat_json = json::Value::array(), graph_json = json::Value::array();
  const auto& fm = p.function_metrics();
  const auto& ft = p.functions();
  const int64_t total = cpu(p.totals().data());
  // Self time of each callee per arc (caller, callee): the leaf's time with that caller below.
  std::map<std::pair<FuncId, FuncId>, int64_t> arc_self;
  for (const auto& a : p.aggregates())
    if (a.funcs.size() > 1 && a.funcs[1] != a.funcs[0]) arc_self[{a.funcs[1], a.funcs[0]}] += cpu(a.values);

  std::vector<FuncId> funcs;
  for (FuncId f : p.functions_with_data())
    if (f != ft.total() && cpu(fm.incl[f].data()) > 0) funcs.push_back(f);
  std::vector<std::string> name(ft.size());
  for (FuncId f = 0; f < ft.size(); ++f) name[f] = function_display_name(ft, f, names);
  auto self_of = [&](FuncId f) { return cpu(fm.excl[f].data()); };
  auto incl_of = [&](FuncId f) { return cpu(fm.incl[f].data()); };

  // Flat profile: functions with time of their own, by self time.
  std::vector<FuncId> flat;
  for (FuncId f : funcs)
    if (self_of(f) > 0) flat.push_back(f);
  std::stable_sort(flat.begin(), flat.end(), [&](FuncId a, FuncId b) {
    if (self_of(a) != self_of(b)) return self_of(a) > self_of(b);
    return name[a] < name[b];
  });
  std::string out = "Flat profile:\n\n";
  if (interval_ns) out += fmt::format("Each sample counts as {:g} seconds.\n", double(interval_ns) / 1e9);
  out += "  %   cumulative   self              self     total           \n";
  out += " time   seconds   seconds    calls  ms/call  ms/call  name    \n";
  int64_t cumulative = 0;
  for (FuncId f : flat) {
    cumulative += self_of(f);
    flat_json.push(json::Value::object()
                       .set("name", name[f])
                       .set("percent", total ? 100.0 * double(self_of(f)) / double(total) : 0.0)
                       .set("cumulative", cumulative)
                       .set("self", self_of(f)));
    out += fmt::format("{:6.2f} {:9.2f} {:8.2f} {:>8} {:>8} {:>8}  {}\n",
                       total ? 100.0 * double(self_of(f)) / double(total) : 0.0, sec(cumulative), sec(self_of(f)), "",
                       "", "", name[f]);
  }

  // Call graph: one entry per function by inclusive time, numbered in that order.
  std::vector<FuncId> order = funcs;
  std::stable_sort(order.begin(), order.end(), [&](FuncId a, FuncId b) {
    if (incl_of(a) != incl_of(b)) return incl_of(a) > incl_of(b);
    return name[a] < name[b];
  });
  std::vector<size_t> index(ft.size(), 0);
  for (size_t i = 0; i < order.size(); ++i) index[order[i]] = i + 1;
  auto label = [&](FuncId f) { return fmt::format("{} [{}]", name[f], index[f]); };
  out += "\n\t\t\tCall graph\n\n\n";
  out += fmt::format("granularity: each sample is weighted by the CPU time it measured; {:.2f} seconds in all\n\n",
                     sec(total));
  out += "index % time    self  children    called     name\n";
  for (FuncId f : order) {
    model::CallersCallees cc = p.callers_callees(f);
    auto arcs = [&](const std::vector<model::Edge>& edges, bool callers) {
      std::vector<Arc> v;
      for (const auto& e : edges) {
        if (e.other == f || e.other == ft.total() || !index[e.other]) continue;  // recursion, the root
        Arc a{e.other, 0, cpu(e.values)};
        auto it = arc_self.find(callers ? std::pair{e.other, f} : std::pair{f, e.other});
        if (it != arc_self.end()) a.self = it->second;
        if (a.total > 0) v.push_back(a);
      }
      // Parents ascending (the largest next to the entry), children descending, as gprof.
      std::stable_sort(v.begin(), v.end(), [&](const Arc& a, const Arc& b) {
        if (a.total != b.total) return callers ? a.total < b.total : a.total > b.total;
        return name[a.other] < name[b.other];
      });
      return v;
    };
    auto parents = arcs(cc.callers, true), children = arcs(cc.callees, false);
    if (parents.empty()) out += fmt::format("{:49}<spontaneous>\n", "");
    for (const auto& a : parents)
      out += fmt::format("{:6} {:5} {:7.2f} {:7.2f} {:>7} {:7}     {}\n", "", "", sec(a.self), sec(a.total - a.self),
                         "", "", label(a.other));
    out += fmt::format("{:<6} {:5.1f} {:7.2f} {:7.2f} {:>7} {:7} {}\n", fmt::format("[{}]", index[f]),
                       total ? 100.0 * double(incl_of(f)) / double(total) : 0.0, sec(self_of(f)),
                       sec(incl_of(f) - self_of(f)), "", "", label(f));
    for (const auto& a : children)
      out += fmt::format("{:6} {:5} {:7.2f} {:7.2f} {:>7} {:7}     {}\n", "", "", sec(a.self), sec(a.total - a.self),
                         "", "", label(a.other));
    out += "-----------------------------------------------\n";
    auto arcs_json = [&](const std::vector<Arc>& v) {
      json::Value a = json::Value::array();
      for (const auto& x : v)
        a.push(json::Value::object()
                   .set("name", name[x.other])
                   .set("index", int64_t(index[x.other]))
                   .set("self", x.self)
                   .set("children", x.total - x.self));
      return a;
    };
    graph_json.push(json::Value::object()
                        .set("index", int64_t(index[f]))
                        .set("name", name[f])
                        .set("percent", total ? 100.0 * double(incl_of(f)) / double(total) : 0.0)
                        .set("self", self_of(f))
                        .set("children", incl_of(f) - self_of(f))
                        .set("parents", arcs_json(parents))
                        .set("callees", arcs_json(children)));
  }

  // Index by function name, three to a line.
  std::vector<FuncId> by_name = order;
  std::stable_sort(by_name.begin(), by_name.end(), [&](FuncId a, FuncId b) { return name[a] < name[b]; });
  out += "\nIndex by function name\n\n";
  for (size_t i = 0; i < by_name.size(); ++i) {
    std::string entry = fmt::format("{:>6} {}", fmt::format("[{}]", index[by_name[i]]), name[by_name[i]]);
    if (i % 3 == 2 || i + 1 == by_name.size()) out += entry + "\n";
    else out += fmt::format("{:<28}", entry);
  }
  if (data) *data = json::Value::object().set("flat", std::move(flat_json)).set("graph", std::move(graph_json));
  return out;
}

}  // namespace erkit::views
