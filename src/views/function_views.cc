#include "views/function_views.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>

namespace erkit::views {

using model::FuncId;

std::string function_qualifier(const model::FunctionTable& ft, FuncId f) {
  const auto& e = ft.at(f);
  const std::string& obj = ft.object(e.object).name;
  if (ft.name_is_unique_in_object(f)) return obj;
  size_t slash = e.source_file.rfind('/');
  if (!e.source_file.empty()) return fmt::format("{}:{}", obj, e.source_file.substr(slash + 1));
  return fmt::format("{}:{:#x}", obj, e.addr);
}

std::string function_display_name(const model::FunctionTable& ft, FuncId f, const NameOptions& n) {
  const auto& e = ft.at(f);
  std::string name = n.mangled && !e.mangled.empty() ? e.mangled : n.short_names ? e.short_name : e.name;
  if (e.pseudo) return name;
  if (n.show_object || !ft.name_is_unique(f)) name += fmt::format(" ({})", function_qualifier(ft, f));
  return name;
}

std::string sort_description(const SortSpec& s) {
  if (s.flavor == 0) return s.reverse ? "(reverse) Name" : "Name";
  std::string fl = s.flavor == 'e' ? "Exclusive" : s.flavor == 'i' ? "Inclusive" : "Attributed";
  return fmt::format("{}{} {}", s.reverse ? "(reverse) " : "", fl, model::metric_def(s.metric).display);
}

json::Value sort_json(const SortSpec& s) {
  json::Value v = json::Value::object();
  if (s.flavor == 0) {
    v.set("flavor", "static").set("metric", "name");
  } else {
    v.set("flavor", s.flavor == 'e' ? "exclusive" : s.flavor == 'i' ? "inclusive" : "attributed");
    v.set("metric", model::metric_def(s.metric).name);
  }
  return v.set("reverse", s.reverse);
}

namespace {

TextTable function_table(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                         const NameOptions& names) {
  TextTable t(cols);
  const auto& totals = p.totals();
  t.set_totals(std::vector<int64_t>(totals.begin(), totals.end()));
  for (FuncId f : sorted_functions(p, sort, limit)) {
    std::vector<int64_t> vals;
    for (const auto& c : cols) vals.push_back(function_value(p, f, c.flavor, c.metric));
    t.add_row(vals, function_display_name(p.functions(), f, names));
    t.set_row_id(f);
  }
  return t;
}

// The rows of one callers-callees panel, in order, with the index of the centre row. `dn`:
// display names by FuncId when the caller has them (many panels), else null.
TextTable panel_table(const model::Profile& p, FuncId f, const std::vector<ViewColumn>& cols, const SortSpec& csort,
                      const NameOptions& names, size_t* ncallers, size_t* ncallees,
                      const std::vector<std::string>* dn = nullptr) {
  model::CallersCallees cc = p.callers_callees(f);
  TextTable t(cols);
  const auto& totals = p.totals();
  const auto& fm = p.function_metrics();
  t.set_totals(std::vector<int64_t>(totals.begin(), totals.end()));
  // Attributed percentages are shares of the centre's inclusive value (seed-spec §7.2).
  for (size_t i = 0; i < cols.size(); ++i)
    if (cols[i].flavor == 'a') t.set_percent_base(i, fm.incl[f][cols[i].metric]);
  auto own_value = [&](FuncId g, char flavor, uint32_t m) { return flavor == 'i' ? fm.incl[g][m] : fm.excl[g][m]; };
  std::vector<int64_t> vals(cols.size());
  auto row_values = [&](FuncId g, const int64_t* attributed) -> const std::vector<int64_t>& {
    for (size_t i = 0; i < cols.size(); ++i)
      vals[i] = cols[i].flavor == 'a' ? attributed[cols[i].metric] : own_value(g, cols[i].flavor, cols[i].metric);
    return vals;
  };
  const auto& ft = p.functions();
  auto name_of = [&](FuncId g) { return dn ? (*dn)[g] : function_display_name(ft, g, names); };
  // Sorted through an index: edges carry every metric and are large to move.
  auto order = [&](const std::vector<model::Edge>& edges) {
    std::vector<int64_t> key(edges.size());
    for (size_t i = 0; i < edges.size() && csort.flavor != 0; ++i)
      key[i] = csort.flavor == 'a' ? edges[i].values[csort.metric]
                                   : own_value(edges[i].other, csort.flavor, csort.metric);
    std::vector<uint32_t> idx(edges.size());
    for (uint32_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
      const std::string &na = ft.at(edges[a].other).name, &nb = ft.at(edges[b].other).name;
      if (csort.flavor == 0) return csort.reverse ? nb < na : na < nb;
      if (key[a] != key[b]) return csort.reverse ? key[a] < key[b] : key[a] > key[b];
      return na < nb;
    });
    return idx;
  };
  for (uint32_t i : order(cc.callers)) {
    const auto& e = cc.callers[i];
    t.add_row(row_values(e.other, e.values), name_of(e.other));
    t.set_row_id(e.other);
  }
  // The centre's own attributed value is its exclusive value (seed-spec §6.1); <Total> does
  // no work of its own (its exclusive column in the function list is the program total).
  std::array<int64_t, model::kMetricCount> own = fm.excl[f];
  if (f == ft.total()) own.fill(0);
  t.add_row(row_values(f, own.data()), name_of(f), "*");
  t.set_row_id(f);
  for (uint32_t i : order(cc.callees)) {
    const auto& e = cc.callees[i];
    t.add_row(row_values(e.other, e.values), name_of(e.other));
    t.set_row_id(e.other);
  }
  *ncallers = cc.callers.size();
  *ncallees = cc.callees.size();
  return t;
}

}  // namespace

std::string render_function_list(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                 size_t limit, const NameOptions& names) {
  return fmt::format("Functions sorted by metric: {}\n\n{}", sort_description(sort),
                     function_table(p, cols, sort, limit, names).render());
}

json::Value function_list_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                               size_t limit, const NameOptions& names) {
  json::Value v = function_table(p, cols, sort, limit, names).to_json();
  v.set("sort", sort_json(sort));
  return v;
}

std::string render_callers_callees_panel(const model::Profile& p, FuncId f, const std::vector<ViewColumn>& cols,
                                         const SortSpec& csort, const NameOptions& names) {
  size_t a, b;
  return panel_table(p, f, cols, csort, names, &a, &b).render();
}

json::Value callers_callees_panel_json(const model::Profile& p, FuncId f, const std::vector<ViewColumn>& cols,
                                       const SortSpec& csort, const NameOptions& names) {
  size_t ncallers, ncallees;
  json::Value t = panel_table(p, f, cols, csort, names, &ncallers, &ncallees).to_json();
  const json::Value& rows = t["rows"];
  json::Value callers = json::Value::array(), callees = json::Value::array();
  for (size_t i = 0; i < ncallers; ++i) callers.push(rows[i]);
  for (size_t i = 0; i < ncallees; ++i) callees.push(rows[ncallers + 1 + i]);
  json::Value center = rows[ncallers];
  return json::Value::object()
      .set("callers", std::move(callers))
      .set("function", std::move(center))
      .set("callees", std::move(callees));
}

void write_callers_callees(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                           const SortSpec& csort, size_t limit, const NameOptions& names,
                           const std::function<void(std::string_view)>& write) {
  std::string out = fmt::format("Functions sorted by metric: {}\nCallers and callees sorted by metric: {}\n\n",
                                sort_description(sort), sort_description(csort));
  const auto& ft = p.functions();
  bool first = true;
  std::vector<std::string> dn;
  for (FuncId f : sorted_functions(p, sort, limit)) {
    // After sorted_functions(): the function table is complete (collapsed objects included).
    for (FuncId g = FuncId(dn.size()); g < ft.size(); ++g) dn.push_back(function_display_name(ft, g, names));
    if (!first) out += "\n";
    first = false;
    size_t a, b;
    panel_table(p, f, cols, csort, names, &a, &b, &dn).render_to(out);
    if (out.size() >= (1u << 20)) {
      write(out);
      out.clear();
    }
  }
  write(out);
}

std::string render_callers_callees(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                   const SortSpec& csort, size_t limit, const NameOptions& names) {
  std::string out;
  write_callers_callees(p, cols, sort, csort, limit, names, [&](std::string_view chunk) { out += chunk; });
  return out;
}

json::Value callers_callees_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                 const SortSpec& csort, size_t limit, const NameOptions& names) {
  json::Value columns = json::Value::array(), panels = json::Value::array();
  for (const auto& c : cols) columns.push(column_json(c));
  // Each panel is kept as its text, as callers_callees_panel_json() would write it: a
  // million rows as values would take gigabytes.
  const auto& ft = p.functions();
  std::vector<std::string> dn;
  for (FuncId f : sorted_functions(p, sort, limit)) {
    for (FuncId g = FuncId(dn.size()); g < ft.size(); ++g) dn.push_back(function_display_name(ft, g, names));
    size_t ncallers, ncallees;
    TextTable t = panel_table(p, f, cols, csort, names, &ncallers, &ncallees, &dn);
    std::string text = "{\"callers\":[";
    for (size_t i = 0; i < ncallers; ++i) {
      if (i) text += ',';
      t.append_row_json(text, i);
    }
    text += "],\"function\":";
    t.append_row_json(text, ncallers);
    text += ",\"callees\":[";
    for (size_t i = 0; i < ncallees; ++i) {
      if (i) text += ',';
      t.append_row_json(text, ncallers + 1 + i);
    }
    text += "]}";
    panels.push(json::Value::raw(std::move(text)));
  }
  return json::Value::object()
      .set("sort", sort_json(sort))
      .set("csort", sort_json(csort))
      .set("columns", std::move(columns))
      .set("panels", std::move(panels));
}

}  // namespace erkit::views
