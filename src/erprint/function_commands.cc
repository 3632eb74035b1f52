// Function-list and callers-callees commands (seed-spec §7.3, §7.4) and gprofng's calltree.
#include <fmt/format.h>

#include <cstdio>

#include "erprint/command_groups.h"
#include "erprint/function_lookup.h"
#include "common/terminal_text.h"
#include "views/function_summary.h"

namespace erkit::erprint {
namespace {

json::Value metric_list_json(const metricspec::MetricList& l) {
  json::Value cols = json::Value::array();
  for (const auto& c : l.columns) {
    json::Value v = json::Value::object();
    v.set("flavor", c.is_static() ? std::string("static") : std::string(1, c.flavor)).set("metric", c.name);
    json::Value vis = json::Value::array();
    if (c.vis & metricspec::kVisTime) vis.push("time");
    if (c.vis & metricspec::kVisValue) vis.push("value");
    if (c.vis & metricspec::kVisPercent) vis.push("percent");
    v.set("visibility", std::move(vis));
    cols.push(std::move(v));
  }
  return json::Value::object().set("current", l.to_string()).set("columns", std::move(cols));
}

// Applies an Outcome of the metric state: warnings, then the confirmation, or the error.
CommandResult apply(Session& s, const std::string& cmd, const metricspec::Outcome& o, json::Value data) {
  std::vector<std::string> warnings;
  std::string text, error;
  for (const auto& l : o.lines) {
    if (l.rfind("Warning: ", 0) == 0) warnings.push_back(l.substr(9));
    else if (l.rfind("Error: ", 0) == 0) error = l.substr(7);
    else text += l + "\n";
  }
  if (!o.ok) {
    for (const auto& w : warnings) fmt::print(stderr, "er_print: warning: {}\n", common::printable(w));
    return command_error(fmt::format("{}: {}", cmd, error));
  }
  return emit_report(s, cmd, text, std::move(data), warnings);
}

CommandResult set_list(Session& s, const std::string& cmd, const std::vector<std::string>& a) {
  auto& ms = s.metric_state();
  const bool callers = cmd == "cmetrics";
  if (a.empty()) {
    const auto& l = callers ? ms.callers_callees() : ms.functions();
    return emit_report(s, cmd, l.confirmation() + "\n", metric_list_json(l));
  }
  auto o = callers ? ms.set_cmetrics(a[0]) : ms.set_metrics(a[0]);
  return apply(s, cmd, o, metric_list_json(callers ? ms.callers_callees() : ms.functions()));
}

json::Value sort_key_json(const metricspec::SortKey& k) {
  return json::Value::object().set("current", k.to_string()).set("reverse", k.reverse);
}

CommandResult set_sort(Session& s, const std::string& cmd, const std::vector<std::string>& a) {
  auto& ms = s.metric_state();
  const bool callers = cmd == "csort";
  if (a.empty()) {
    const auto& k = callers ? ms.csort() : ms.sort();
    return emit_report(s, cmd, "current sort: " + k.to_string() + "\n", sort_key_json(k));
  }
  auto o = callers ? ms.set_csort(a[0]) : ms.set_sort(a[0]);
  return apply(s, cmd, o, sort_key_json(callers ? ms.csort() : ms.sort()));
}

CommandResult summaries(Session& s, const std::string& cmd, const std::vector<model::FuncId>& funcs) {
  // Every recorded metric with data; the rest would be rows of zeros.
  std::vector<uint32_t> metrics;
  for (uint32_t m : s.profile().available_metrics())
    if (s.profile().totals()[m] != 0) metrics.push_back(m);
  std::string text;
  json::Value list = json::Value::array();
  for (size_t i = 0; i < funcs.size(); ++i) {
    if (i) text += "\n";
    if (s.format == OutputFormat::Json) list.push(views::function_summary_json(s.profile(), funcs[i], metrics, s.names));
    else text += views::render_function_summary(s.profile(), funcs[i], metrics, s.names);
  }
  return emit_report(s, cmd, text, json::Value::object().set("functions", std::move(list)));
}

std::optional<model::FuncId> pick(Session& s, const std::string& cmd, const std::vector<std::string>& a,
                                  std::string* error) {
  return choose_function(s, cmd, a[0], a.size() > 1 ? std::optional<std::string>(a[1]) : std::nullopt, error);
}

}  // namespace

void add_function_commands(std::vector<Command>& t) {
  t.push_back({"functions", {}, 0, 0, "", "Show the function list with the current metrics",
               [](Session& s, const auto&) {
                 if (compare_active(s)) return compare_functions(s);
                 auto& p = s.profile();
                 auto cols = s.function_columns();
                 if (s.format == OutputFormat::Json)
                   return emit_report(s, "functions", "", views::function_list_json(p, cols, s.sort(), s.limit, s.names));
                 return emit_text(s, "functions", views::render_function_list(p, cols, s.sort(), s.limit, s.names));
               }});
  t.push_back({"metrics", {}, 0, 1, "[metric_spec|default]", "Set (or show) the function-list metrics",
               [](Session& s, const auto& a) { return set_list(s, "metrics", a); }});
  t.push_back({"sort", {}, 0, 1, "[-]metric_spec|default", "Sort the function list by a metric (-metric reverses)",
               [](Session& s, const auto& a) { return set_sort(s, "sort", a); }});
  t.push_back({"fsummary", {}, 0, 0, "", "Show a summary panel for each function in the list",
               [](Session& s, const auto&) {
                 return summaries(s, "fsummary", views::sorted_functions(s.profile(), s.sort(), s.limit));
               }});
  t.push_back({"fsingle", {}, 1, 2, "function_name [N]", "Show the summary panel of one function",
               [](Session& s, const auto& a) {
                 std::string error;
                 auto f = pick(s, "fsingle", a, &error);
                 if (!f) return command_error(error);
                 return summaries(s, "fsingle", {*f});
               }});
  t.push_back({"callers-callees", {}, 0, 0, "", "Show callers and callees of each function in the list",
               [](Session& s, const auto&) {
                 auto& p = s.profile();
                 auto cols = s.callers_callees_columns();
                 if (s.format == OutputFormat::Json)
                   return emit_report(s, "callers-callees", "",
                                      views::callers_callees_json(p, cols, s.sort(), s.csort(), s.limit, s.names));
                 views::write_callers_callees(p, cols, s.sort(), s.csort(), s.limit, s.names,
                                              [&](std::string_view chunk) {
                                                std::fwrite(chunk.data(), 1, chunk.size(), s.out);
                                              });
                 std::fflush(s.out);
                 return command_ok();
               }});
  t.push_back({"cmetrics", {}, 0, 1, "[metric_spec|default]", "Set (or show) the callers-callees metrics",
               [](Session& s, const auto& a) { return set_list(s, "cmetrics", a); }});
  t.push_back({"csingle", {}, 1, 2, "function_name [N]", "Show the callers-callees panel of one function",
               [](Session& s, const auto& a) {
                 std::string error;
                 auto f = pick(s, "csingle", a, &error);
                 if (!f) return command_error(error);
                 auto& p = s.profile();
                 auto cols = s.callers_callees_columns();
                 std::string text = fmt::format("Callers and callees sorted by metric: {}\n\n{}",
                                                views::sort_description(s.csort()),
                                                views::render_callers_callees_panel(p, *f, cols, s.csort(), s.names));
                 json::Value data;
                 if (s.format == OutputFormat::Json) {
                   json::Value columns = json::Value::array();
                   for (const auto& c : cols) columns.push(views::column_json(c));
                   data = json::Value::object()
                              .set("csort", views::sort_json(s.csort()))
                              .set("columns", std::move(columns))
                              .set("panels", json::Value::array().push(
                                                 views::callers_callees_panel_json(p, *f, cols, s.csort(), s.names)));
                 }
                 return emit_report(s, "csingle", text, std::move(data));
               }});
  t.push_back({"csort", {}, 0, 1, "[-]metric_spec", "Sort callers and callees by an attributed or static metric",
               [](Session& s, const auto& a) { return set_sort(s, "csort", a); }});
  t.push_back({"calltree", {}, 0, 0, "", "Show the dynamic call tree with the current metrics (as gprofng)",
               [](Session& s, const auto&) {
                 auto& p = s.profile();
                 auto cols = s.function_columns();
                 if (s.format == OutputFormat::Json)
                   return emit_report(s, "calltree", "", views::call_tree_json(p, cols, s.sort(), s.limit, s.names));
                 // Written as it is produced: the text of a large tree is far bigger than the tree.
                 views::write_call_tree(p, cols, s.sort(), s.limit, s.names, [&](std::string_view chunk) {
                   std::fwrite(chunk.data(), 1, chunk.size(), s.out);
                 });
                 std::fflush(s.out);
                 return command_ok();
               }});
}

}  // namespace erkit::erprint
