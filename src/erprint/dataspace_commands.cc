#include "erprint/dataspace_commands.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>

#include "views/dataspace_views.h"
#include "erprint/command_groups.h"

namespace erkit::erprint {
namespace {

struct DsState {
  size_t nexps = SIZE_MAX;
  std::unique_ptr<dataspace::Dataspace> ds;
  std::vector<std::string> metrics;
  dataspace::DataSort sort;
};

// One analysis per session, rebuilt when experiments are added. Owned by the session: a map
// keyed by the session's address served a later session at the same address (the analyzer's
// Collect window replaces its session) the earlier one's analysis, over freed experiments.
DsState& state(Session& s) {
  if (!s.dataspace_state) s.dataspace_state = std::make_shared<DsState>();
  DsState& st = *static_cast<DsState*>(s.dataspace_state.get());
  const auto& exps = s.profile().experiments();
  if (!st.ds || st.nexps != exps.size()) {
    model::Profile& p = s.profile();
    p.aggregates();  // every event's stack resolved, heap allocations' included
    // A heap block's allocation site: the function that called the allocator, with its line.
    auto namer = [&p](uint32_t x, uint64_t stack_id, uint64_t) -> std::string {
      const model::ResolvedStack* rs = p.resolver().find(x, stack_id);
      if (!rs || rs->frames.empty()) return {};
      // The leaf is the allocator the program called (the collector's interposer, shown as the
      // real function); the site is the first frame above it outside the collector.
      auto in_collector = [&p](const model::FrameRef& f) {
        model::ObjId o = p.functions().at(f.func).object;
        return o < p.functions().object_count() && p.functions().object(o).name.starts_with("libcollector");
      };
      size_t i = rs->frames.size() > 1 ? 1 : 0;
      while (i + 1 < rs->frames.size() && in_collector(rs->frames[i])) ++i;
      const model::FrameRef& f = rs->frames[i];
      std::string name = p.functions().at(f.func).name;
      const auto& lines = p.resolver().lines();
      if (f.line < lines.size() && lines[f.line].line && lines[f.line].file < p.resolver().files().size()) {
        std::string file = p.resolver().files()[lines[f.line].file];
        if (auto sl = file.rfind('/'); sl != std::string::npos) file.erase(0, sl + 1);
        name += fmt::format(", {}:{}", file, lines[f.line].line);
      }
      return name;
    };
    st.ds = std::make_unique<dataspace::Dataspace>(dataspace::Dataspace::build(exps, namer));
    st.nexps = exps.size();
  }
  return st;
}

CommandResult no_data(Session& s, const std::string& cmd, const dataspace::Dataspace& d) {
  return emit_report(s, cmd, fmt::format("{}: {}\n", cmd, d.why_empty()),
                     json::Value::object().set("available", false).set("reason", d.why_empty()));
}

}  // namespace

bool has_dataspace(Session& s) { return !state(s).ds->empty(); }

bool data_metric_known(Session& s, const std::string& name) {
  for (const auto& m : state(s).ds->metrics())
    if (m.name == name) return true;
  return false;
}

void set_data_metrics(Session& s, const std::vector<std::string>& names) { state(s).metrics = names; }

namespace {
std::string data_keyword(const dataspace::DsMetric& m) { return std::string(m.time ? "d." : "d+") + m.name; }
}  // namespace

std::string current_data_metrics(Session& s) {
  DsState& st = state(s);
  const auto& ms = st.ds->metrics();
  std::string out;
  // As the lists show them (dataspace_views.cc): the names given, else every metric.
  auto listed = [&](const std::string& n) {
    return std::find(st.metrics.begin(), st.metrics.end(), n) != st.metrics.end();
  };
  bool any = false;
  for (const auto& m : ms) any |= listed(m.name);
  for (const auto& m : ms)
    if (!any || listed(m.name)) out += data_keyword(m) + ":d%" + m.name + ":";
  return out + "name";
}

std::string current_data_sort(Session& s) {
  DsState& st = state(s);
  const int i = dataspace::sort_metric(*st.ds, st.metrics, st.sort);
  const std::string key = i >= 0 ? data_keyword(st.ds->metrics()[size_t(i)]) : st.sort.metric == "size" ? "size" : "name";
  return (st.sort.reverse ? "-" : "") + key;
}

void set_data_sort(Session& s, const std::string& metric, bool reverse) { state(s).sort = {metric, reverse}; }

CommandResult run_data_objects(Session& s) {
  DsState& st = state(s);
  if (st.ds->empty()) return no_data(s, "data_objects", *st.ds);
  auto r = dataspace::render_data_objects(*st.ds, st.metrics, s.limit, st.sort);
  return emit_report(s, "data_objects", std::move(r.text), std::move(r.data));
}

CommandResult run_data_single(Session& s, const std::vector<std::string>& a) {
  DsState& st = state(s);
  if (st.ds->empty()) return no_data(s, "data_single", *st.ds);
  int n = 0;
  if (a.size() > 1) {
    try {
      n = std::stoi(a[1]);
    } catch (...) {
      return command_error(fmt::format("data_single: '{}' is not a number", a[1]));
    }
  }
  std::string err;
  auto r = dataspace::render_data_single(*st.ds, a[0], n, &err);
  if (!err.empty()) return command_error(err);
  return emit_report(s, "data_single", std::move(r.text), std::move(r.data));
}

CommandResult run_data_layout(Session& s) {
  DsState& st = state(s);
  if (st.ds->empty()) return no_data(s, "data_layout", *st.ds);
  auto r = dataspace::render_data_layout(*st.ds, st.metrics, st.sort);
  return emit_report(s, "data_layout", std::move(r.text), std::move(r.data));
}

CommandResult run_memobj(Session& s, const std::string& type, const std::string& expr) {
  DsState& st = state(s);
  if (st.ds->empty())
    return emit_report(s, "memobj", fmt::format("memobj: no {} memory objects: {}\n", type, st.ds->why_empty()),
                       json::Value::object().set("available", false).set("reason", st.ds->why_empty()));
  std::vector<std::string> names;
  for (const auto& [n, e] : s.memobj_types) names.push_back(n);
  std::string err;
  auto rows = st.ds->memory_objects(expr, names, &err);
  if (!err.empty()) return command_error(fmt::format("memobj: bad index expression of {}:\n{}", type, err));
  bool hex = expr.find("ADDR") != std::string::npos;  // address-based, not an index object
  auto r = dataspace::render_memobj(*st.ds, type, rows, s.limit, hex, st.sort);
  return emit_report(s, "memobj", std::move(r.text), std::move(r.data));
}

}  // namespace erkit::erprint
