#include "views/line_views.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace erkit::views {
namespace {

struct Item {
  std::string label;
  model::Values excl{}, incl{};
  // Summary fields.
  std::string source, object;
  uint64_t vaddr = 0;
  bool has_vaddr = false;
};

std::string base_name(const std::string& p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

int64_t key_of(const Item& i, const SortSpec& s) { return s.flavor == 'i' ? i.incl[s.metric] : i.excl[s.metric]; }

void sort_items(std::vector<Item>& v, const SortSpec& s) {
  std::stable_sort(v.begin(), v.end(), [&](const Item& a, const Item& b) {
    if (s.flavor == 0) return s.reverse ? b.label < a.label : a.label < b.label;
    int64_t ka = key_of(a, s), kb = key_of(b, s);
    if (ka != kb) return s.reverse ? ka < kb : ka > kb;
    return a.label < b.label;
  });
}

// One row per collapsed load object, counted as the function list counts the object's
// pseudo-function: exclusive from the stacks whose leaf is in the object, inclusive once
// per stack with any frame in it (not the sum of its lines, which counts a stack once per
// line it passes through).
void add_collapsed_rows(model::Profile& p, const LineViewOptions& o, std::vector<Item>* items) {
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

std::vector<Item> collect(model::Profile& p, bool pcs, const NameOptions& names, const LineViewOptions& o) {
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
      i.label = fmt::format("{} + 0x{:08X}", function_display_name(ft, pc.func, names), pe.vaddr - fe.addr);
      i.excl = pc.excl, i.incl = pc.incl;
      i.object = ft.object(pe.object).path;
      i.vaddr = pe.vaddr, i.has_vaddr = true;
      if (pc.line) {
        const auto& le = r.lines()[pc.line];
        i.source = fmt::format("{}:{}", r.files()[le.file], le.line);
      }
      items.push_back(i);
    }
    return items;
  }
  for (const auto& l : m.lines) {
    if (ft.at(l.func).pseudo) continue;
    if (collapsed(l.func)) continue;
    Item i;
    std::string fname = function_display_name(ft, l.func, names);
    if (l.line == 0) {
      i.label = fmt::format("<Function: {}, instructions without line numbers>", fname);
    } else {
      const auto& le = r.lines()[l.line];
      i.label = fmt::format("{}, line {} in \"{}\"", fname, le.line, base_name(r.files()[le.file]));
      i.source = fmt::format("{}:{}", r.files()[le.file], le.line);
    }
    i.object = ft.object(ft.at(l.func).object).path;
    i.excl = l.excl, i.incl = l.incl;
    items.push_back(i);
  }
  return items;
}

std::string render_list(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                        const NameOptions& names, const LineViewOptions& o, bool pcs) {
  std::vector<Item> items = collect(p, pcs, names, o);
  sort_items(items, sort);
  Item total;
  total.label = "<Total>";
  total.excl = total.incl = p.totals();
  items.insert(items.begin(), total);
  if (limit && items.size() > limit) items.resize(limit);
  TextTable t(cols);
  const auto& tot = p.totals();
  t.set_totals(std::vector<int64_t>(tot.begin(), tot.end()));
  for (const auto& i : items) {
    std::vector<int64_t> vals;
    for (const auto& c : cols) vals.push_back(c.flavor == 'i' ? i.incl[c.metric] : i.excl[c.metric]);
    t.add_row(vals, i.label);
  }
  return fmt::format("{} sorted by metric: {}\n\n{}", pcs ? "PCs" : "Lines", sort_description(sort), t.render());
}

std::string render_summaries(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                             size_t limit, const NameOptions& names, const LineViewOptions& o, bool pcs) {
  std::vector<Item> items = collect(p, pcs, names, o);
  sort_items(items, sort);
  if (limit && items.size() > limit) items.resize(limit);
  const auto& tot = p.totals();
  std::string out;
  for (const auto& i : items) {
    out += i.label + "\n";
    for (const auto& c : cols) {
      if (c.percent) continue;
      const auto& d = model::metric_def(c.metric);
      int64_t v = c.flavor == 'i' ? i.incl[c.metric] : i.excl[c.metric];
      out += fmt::format("  {:>34}:  {} ({})\n", fmt::format("{} {}", c.flavor == 'i' ? "Inclusive" : "Exclusive", d.display),
                         format_value(c.metric, v), format_percent(v, tot[c.metric]) + "%");
    }
    if (!i.source.empty()) out += fmt::format("  {:>34}:  {}\n", "Source Line", i.source);
    if (i.has_vaddr) out += fmt::format("  {:>34}:  {:#x}\n", "PC Address", i.vaddr);
    if (!i.object.empty()) out += fmt::format("  {:>34}:  {}\n", "Load Object", i.object);
    out += "\n";
  }
  return out;
}

}  // namespace

std::string render_lines(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                         const NameOptions& names, const LineViewOptions& o) {
  return render_list(p, cols, sort, limit, names, o, false);
}
std::string render_line_summaries(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                  size_t limit, const NameOptions& names, const LineViewOptions& o) {
  return render_summaries(p, cols, sort, limit, names, o, false);
}
std::string render_pcs(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                       const NameOptions& names, const LineViewOptions& o) {
  return render_list(p, cols, sort, limit, names, o, true);
}
std::string render_pc_summaries(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                                size_t limit, const NameOptions& names, const LineViewOptions& o) {
  return render_summaries(p, cols, sort, limit, names, o, true);
}

}  // namespace erkit::views
