#include "views/line_views.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace erkit::views {
namespace {

struct Item {
  std::string label;
  const char* kind = "line";  // total, line, no_line, pc, object
  model::Values excl{}, incl{};
  // Where the row comes from (summaries, JSON).
  std::string function, file, object;
  uint32_t line = 0;
  uint64_t vaddr = 0, offset = 0;
  bool has_vaddr = false;
};

std::string base_name(const std::string& p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

int64_t value_of(const Item& i, char flavor, uint32_t metric) {
  return flavor == 'i' ? i.incl[metric] : i.excl[metric];
}

void sort_items(std::vector<Item>& v, const SortSpec& s) {
  std::stable_sort(v.begin(), v.end(), [&](const Item& a, const Item& b) {
    if (s.flavor == 0) return s.reverse ? b.label < a.label : a.label < b.label;
    int64_t ka = value_of(a, s.flavor, s.metric), kb = value_of(b, s.flavor, s.metric);
    if (ka != kb) return s.reverse ? ka < kb : ka > kb;
    return a.label < b.label;
  });
}

// One row per collapsed load object, counted as the function list counts the object's
// pseudo-function: exclusive from the stacks whose leaf is in the object, inclusive once
// per stack with any frame in it (not the sum of its lines, which counts a stack once per
// line it passes through).
void add_collapsed_rows(const model::Profile& p, const LineViewOptions& o, std::vector<Item>* items) {
  const auto& ft = p.functions();
  std::map<model::ObjId, Item> rows;
  std::vector<model::ObjId> seen;
  for (const auto& a : p.aggregates()) {
    seen.clear();
    const auto& frames = a.stack->frames;
    for (size_t k = 0; k < frames.size(); ++k) {
      const auto& f = frames[k];
      if (f.pc == 0 && f.line == 0) continue;  // pseudo frames
      model::ObjId obj = ft.at(f.func).object;
      if (!o.collapsed.count(obj) || std::find(seen.begin(), seen.end(), obj) != seen.end()) continue;
      seen.push_back(obj);
      auto [it, fresh] = rows.try_emplace(obj);
      if (fresh) {
        it->second.label = fmt::format("<{}>", ft.object(obj).name);
        it->second.kind = "object";
        it->second.object = ft.object(obj).path;
      }
      for (uint32_t m = 0; m < model::kMetricCount; ++m) {
        if (k == 0) it->second.excl[m] += a.values[m];
        it->second.incl[m] += a.values[m];
      }
    }
  }
  for (auto& [obj, row] : rows) items->push_back(std::move(row));
}

std::vector<Item> collect_rows(const model::Profile& p, bool pcs, const NameOptions& names, const LineViewOptions& o);

// Every report's rows add up to <Total> (issue 15): the exclusive time of stacks whose leaf has
// no PC or line (an unwind that found nothing, <Truncated> stacks, data without a stack) is
// one <Unknown> row, as in the function list.
std::vector<Item> collect(const model::Profile& p, bool pcs, const NameOptions& names, const LineViewOptions& o) {
  std::vector<Item> items = collect_rows(p, pcs, names, o);
  model::Values rest = p.totals();
  for (const auto& i : items)
    for (uint32_t m = 0; m < model::kMetricCount; ++m) rest[m] -= i.excl[m];
  bool any = false;
  for (int64_t v : rest) any |= v != 0;
  if (any) {
    Item u;
    u.kind = "unknown";
    u.label = u.function = "<Unknown>";
    u.excl = u.incl = rest;
    items.push_back(u);
  }
  return items;
}

std::vector<Item> collect_rows(const model::Profile& p, bool pcs, const NameOptions& names, const LineViewOptions& o) {
  model::PcLineMetrics m = model::compute_pc_line_metrics(p);
  const auto& r = p.resolver();
  const auto& ft = p.functions();
  std::vector<Item> items;
  add_collapsed_rows(p, o, &items);
  auto collapsed = [&](model::FuncId f) { return o.collapsed.count(ft.at(f).object) > 0; };
  if (pcs) {
    for (const auto& pc : m.pcs) {
      if (pc.caller) continue;  // return addresses carry no exclusive data; `disasm` shows them on calls
      if (collapsed(pc.func)) continue;
      const auto& pe = r.pcs()[pc.pc];
      const auto& fe = ft.at(pc.func);
      Item i;
      i.kind = "pc";
      i.function = function_display_name(ft, pc.func, names);
      i.offset = pe.vaddr - fe.addr;
      i.label = fmt::format("{} + 0x{:08X}", i.function, i.offset);
      i.excl = pc.excl, i.incl = pc.incl;
      i.object = ft.object(pe.object).path;
      i.vaddr = pe.vaddr, i.has_vaddr = true;
      if (pc.line) {
        const auto& le = r.lines()[pc.line];
        i.file = r.files()[le.file];
        i.line = le.line;
      }
      items.push_back(i);
    }
    return items;
  }
  for (const auto& l : m.lines) {
    if (ft.at(l.func).pseudo) continue;
    if (collapsed(l.func)) continue;
    Item i;
    i.function = function_display_name(ft, l.func, names);
    if (l.line == 0) {
      i.kind = "no_line";
      i.label = fmt::format("<Function: {}, instructions without line numbers>", i.function);
    } else {
      const auto& le = r.lines()[l.line];
      i.file = r.files()[le.file];
      i.line = le.line;
      i.label = fmt::format("{}, line {} in \"{}\"", i.function, le.line, base_name(i.file));
    }
    i.object = ft.object(ft.at(l.func).object).path;
    i.excl = l.excl, i.incl = l.incl;
    items.push_back(i);
  }
  return items;
}

// The rows of a list: <Total> first, then the sorted items, limited.
std::vector<Item> list_items(const model::Profile& p, const SortSpec& sort, size_t limit, const NameOptions& names,
                             const LineViewOptions& o, bool pcs) {
  std::vector<Item> items = collect(p, pcs, names, o);
  sort_items(items, sort);
  Item total;
  total.label = "<Total>";
  total.kind = "total";
  total.excl = total.incl = p.totals();
  items.insert(items.begin(), total);
  if (limit && items.size() > limit) items.resize(limit);
  return items;
}

std::vector<Item> summary_items(const model::Profile& p, const SortSpec& sort, size_t limit, const NameOptions& names,
                                const LineViewOptions& o, bool pcs) {
  std::vector<Item> items = collect(p, pcs, names, o);
  sort_items(items, sort);
  if (limit && items.size() > limit) items.resize(limit);
  return items;
}

std::string render_list(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                        const NameOptions& names, const LineViewOptions& o, bool pcs) {
  TextTable t(cols);
  const auto& tot = p.totals();
  t.set_totals(std::vector<int64_t>(tot.begin(), tot.end()));
  for (const auto& i : list_items(p, sort, limit, names, o, pcs)) {
    std::vector<int64_t> vals;
    for (const auto& c : cols) vals.push_back(value_of(i, c.flavor, c.metric));
    t.add_row(vals, i.label);
  }
  return fmt::format("{} sorted by metric: {}\n\n{}", pcs ? "PCs" : "Lines", sort_description(sort), t.render());
}

std::string flavor_title(char flavor) { return flavor == 'i' ? "Inclusive" : "Exclusive"; }

std::string render_summaries(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                             size_t limit, const NameOptions& names, const LineViewOptions& o, bool pcs) {
  const auto& tot = p.totals();
  std::string out;
  for (const auto& i : summary_items(p, sort, limit, names, o, pcs)) {
    out += i.label + "\n";
    for (const auto& c : cols) {
      if (c.percent) continue;
      const auto& d = model::metric_def(c.metric);
      int64_t v = value_of(i, c.flavor, c.metric);
      out += fmt::format("  {:>34}:  {} ({})\n", fmt::format("{} {}", flavor_title(c.flavor), d.display),
                         format_value(c.metric, v), format_percent(v, tot[c.metric]) + "%");
    }
    if (!i.file.empty()) out += fmt::format("  {:>34}:  {}:{}\n", "Source Line", i.file, i.line);
    if (i.has_vaddr) out += fmt::format("  {:>34}:  {:#x}\n", "PC Address", i.vaddr);
    if (!i.object.empty()) out += fmt::format("  {:>34}:  {}\n", "Load Object", i.object);
    out += "\n";
  }
  return out;
}

// The descriptive fields of a row (everything but its values).
json::Value item_json(const Item& i) {
  json::Value v = json::Value::object();
  v.set("name", i.label).set("kind", i.kind);
  if (!i.function.empty()) v.set("function", i.function);
  if (i.has_vaddr) v.set("offset", i.offset).set("address", i.vaddr);
  if (!i.file.empty()) v.set("source_file", i.file).set("line", i.line);
  if (!i.object.empty()) v.set("load_object", i.object);
  return v;
}

json::Value list_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                      const NameOptions& names, const LineViewOptions& o, bool pcs) {
  const auto& tot = p.totals();
  json::Value columns = json::Value::array(), rows = json::Value::array();
  for (const auto& c : cols) columns.push(column_json(c));
  for (const auto& i : list_items(p, sort, limit, names, o, pcs)) {
    json::Value vals = json::Value::array();
    for (const auto& c : cols) {
      int64_t v = value_of(i, c.flavor, c.metric);
      if (c.percent) vals.push(percent_of(v, tot[c.metric]));
      else vals.push(v);
    }
    rows.push(item_json(i).set("values", std::move(vals)));
  }
  return json::Value::object()
      .set("sort", sort_json(sort))
      .set("columns", std::move(columns))
      .set("rows", std::move(rows));
}

json::Value summaries_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                           size_t limit, const NameOptions& names, const LineViewOptions& o, bool pcs) {
  const auto& tot = p.totals();
  json::Value items = json::Value::array();
  for (const auto& i : summary_items(p, sort, limit, names, o, pcs)) {
    json::Value metrics = json::Value::array();
    for (const auto& c : cols) {
      if (c.percent) continue;
      int64_t v = value_of(i, c.flavor, c.metric);
      metrics.push(column_json(c).set("value", v).set("percent", percent_of(v, tot[c.metric])));
    }
    items.push(item_json(i).set("metrics", std::move(metrics)));
  }
  return json::Value::object().set("sort", sort_json(sort)).set("items", std::move(items));
}

}  // namespace

LineViewOptions line_view_options(const model::Profile& p) {
  LineViewOptions o;
  for (model::ObjId obj : p.objects_in_load_order())
    if (!p.object_expanded(obj)) o.collapsed.insert(obj);
  return o;
}

std::string render_lines(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                         const NameOptions& names, const LineViewOptions& o) {
  return render_list(p, cols, sort, limit, names, o, false);
}
std::string render_line_summaries(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                  size_t limit, const NameOptions& names, const LineViewOptions& o) {
  return render_summaries(p, cols, sort, limit, names, o, false);
}
std::string render_pcs(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                       const NameOptions& names, const LineViewOptions& o) {
  return render_list(p, cols, sort, limit, names, o, true);
}
std::string render_pc_summaries(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                size_t limit, const NameOptions& names, const LineViewOptions& o) {
  return render_summaries(p, cols, sort, limit, names, o, true);
}
json::Value lines_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                       const NameOptions& names, const LineViewOptions& o) {
  return list_json(p, cols, sort, limit, names, o, false);
}
json::Value pcs_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                     const NameOptions& names, const LineViewOptions& o) {
  return list_json(p, cols, sort, limit, names, o, true);
}
json::Value line_summaries_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                size_t limit, const NameOptions& names, const LineViewOptions& o) {
  return summaries_json(p, cols, sort, limit, names, o, false);
}
json::Value pc_summaries_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                              size_t limit, const NameOptions& names, const LineViewOptions& o) {
  return summaries_json(p, cols, sort, limit, names, o, true);
}

}  // namespace erkit::views
