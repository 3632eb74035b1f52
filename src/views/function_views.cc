#include "views/function_views.h"

#include <fmt/format.h>

#include <algorithm>

namespace erkit::views {

using model::FuncId;

std::string function_display_name(const model::FunctionTable& ft, FuncId f, const NameOptions& n) {
  const auto& e = ft.at(f);
  std::string name = n.mangled && !e.mangled.empty() ? e.mangled : n.short_names ? e.short_name : e.name;
  if (e.pseudo) return name;
  if (n.show_object || !ft.name_is_unique(f)) name += fmt::format(" ({})", ft.object(e.object).name);
  return name;
}

std::string sort_description(const SortSpec& s) {
  if (s.flavor == 0) return "Name";
  std::string fl = s.flavor == 'e' ? "Exclusive" : s.flavor == 'i' ? "Inclusive" : "Attributed";
  return fmt::format("{}{} {}", s.reverse ? "(reverse) " : "", fl, model::metric_def(s.metric).display);
}

namespace {

int64_t column_value(model::Profile& p, FuncId f, char flavor, uint32_t m) {
  const auto& fm = p.function_metrics();
  return flavor == 'i' ? fm.incl[f][m] : fm.excl[f][m];
}

template <typename Key>
void sort_by(std::vector<FuncId>& v, const SortSpec& s, Key key, const model::FunctionTable& ft) {
  std::stable_sort(v.begin(), v.end(), [&](FuncId a, FuncId b) {
    if (s.flavor == 0) {
      bool lt = ft.at(a).name < ft.at(b).name;
      return s.reverse ? ft.at(b).name < ft.at(a).name : lt;
    }
    int64_t ka = key(a), kb = key(b);
    if (ka != kb) return s.reverse ? ka < kb : ka > kb;
    return ft.at(a).name < ft.at(b).name;
  });
}

}  // namespace

std::vector<FuncId> sorted_functions(model::Profile& p, const SortSpec& sort, size_t limit) {
  std::vector<FuncId> v = p.functions_with_data();
  FuncId total = p.functions().total();
  v.erase(std::remove(v.begin(), v.end(), total), v.end());
  sort_by(v, sort, [&](FuncId f) { return column_value(p, f, sort.flavor, sort.metric); }, p.functions());
  v.insert(v.begin(), total);
  if (limit && v.size() > limit) v.resize(limit);
  return v;
}

std::string render_function_list(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                 size_t limit, const NameOptions& names) {
  TextTable t(cols);
  const auto& totals = p.totals();
  t.set_totals(std::vector<int64_t>(totals.begin(), totals.end()));
  for (FuncId f : sorted_functions(p, sort, limit)) {
    std::vector<int64_t> vals;
    for (const auto& c : cols) vals.push_back(column_value(p, f, c.flavor, c.metric));
    t.add_row(vals, function_display_name(p.functions(), f, names));
  }
  return fmt::format("Functions sorted by metric: {}\n\n{}", sort_description(sort), t.render());
}

std::string render_callers_callees_panel(model::Profile& p, FuncId f, const std::vector<ViewColumn>& cols,
                                         const SortSpec& csort, const NameOptions& names) {
  model::CallersCallees cc = p.callers_callees(f);
  TextTable t(cols);
  const auto& totals = p.totals();
  t.set_totals(std::vector<int64_t>(totals.begin(), totals.end()));
  auto row_values = [&](FuncId g, const int64_t* attributed) {
    std::vector<int64_t> vals;
    for (const auto& c : cols)
      vals.push_back(c.flavor == 'a' ? attributed[c.metric] : column_value(p, g, c.flavor, c.metric));
    return vals;
  };
  auto order = [&](std::vector<model::Edge>& edges) {
    std::stable_sort(edges.begin(), edges.end(), [&](const model::Edge& a, const model::Edge& b) {
      if (csort.flavor == 0) return p.functions().at(a.other).name < p.functions().at(b.other).name;
      int64_t ka = csort.flavor == 'a' ? a.values[csort.metric] : column_value(p, a.other, csort.flavor, csort.metric);
      int64_t kb = csort.flavor == 'a' ? b.values[csort.metric] : column_value(p, b.other, csort.flavor, csort.metric);
      if (ka != kb) return csort.reverse ? ka < kb : ka > kb;
      return p.functions().at(a.other).name < p.functions().at(b.other).name;
    });
  };
  order(cc.callers);
  order(cc.callees);
  for (const auto& e : cc.callers) t.add_row(row_values(e.other, e.values), function_display_name(p.functions(), e.other, names));
  // The centre's own attributed value is its exclusive value (seed-spec §6.1).
  const auto& own = p.function_metrics().excl[f];
  t.add_row(row_values(f, own.data()), function_display_name(p.functions(), f, names), "*");
  for (const auto& e : cc.callees) t.add_row(row_values(e.other, e.values), function_display_name(p.functions(), e.other, names));
  return t.render();
}

std::string render_callers_callees(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                   const SortSpec& csort, size_t limit, const NameOptions& names) {
  std::string out = fmt::format("Functions sorted by metric: {}\nCallers and callees sorted by metric: {}\n\n",
                                sort_description(sort), sort_description(csort));
  bool first = true;
  for (FuncId f : sorted_functions(p, sort, limit)) {
    if (!first) out += "\n";
    first = false;
    out += render_callers_callees_panel(p, f, cols, csort, names);
  }
  return out;
}

}  // namespace erkit::views
