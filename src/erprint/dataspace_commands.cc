#include "erprint/dataspace_commands.h"

#include <fmt/format.h>

#include <map>
#include <memory>

#include "dataspace/dataspace_views.h"
#include "erprint/command_groups.h"

namespace erkit::erprint {
namespace {

struct DsState {
  size_t nexps = SIZE_MAX;
  std::unique_ptr<dataspace::Dataspace> ds;
  std::vector<std::string> metrics;
};

// One analysis per session, rebuilt when experiments are added.
DsState& state(Session& s) {
  static std::map<const Session*, DsState> states;
  DsState& st = states[&s];
  const auto& exps = s.profile().experiments();
  if (!st.ds || st.nexps != exps.size()) {
    st.ds = std::make_unique<dataspace::Dataspace>(dataspace::Dataspace::build(exps));
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

void set_data_metrics(Session& s, const std::vector<std::string>& names) { state(s).metrics = names; }

CommandResult run_data_objects(Session& s) {
  DsState& st = state(s);
  if (st.ds->empty()) return no_data(s, "data_objects", *st.ds);
  auto r = dataspace::render_data_objects(*st.ds, st.metrics, s.limit);
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
  auto r = dataspace::render_data_layout(*st.ds, st.metrics);
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
  auto r = dataspace::render_memobj(*st.ds, type, rows, s.limit, hex);
  return emit_report(s, "memobj", std::move(r.text), std::move(r.data));
}

}  // namespace erkit::erprint
