#include "views/function_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

namespace erkit::views {

using model::FuncId;

namespace {

struct Field {
  std::string label, value;
};

std::vector<FuncId> aliases_of(const model::FunctionTable& ft, FuncId f) {
  std::vector<FuncId> out;
  const auto& e = ft.at(f);
  if (e.pseudo || e.addr == 0) return out;
  for (FuncId g = 0; g < ft.size(); ++g)
    if (g != f && !ft.at(g).pseudo && ft.at(g).object == e.object && ft.at(g).addr == e.addr) out.push_back(g);
  return out;
}

std::string object_path(const model::FunctionTable& ft, FuncId f) {
  const auto& e = ft.at(f);
  if (e.object == model::kNoObject) return "<pseudo>";
  return ft.object(e.object).path;
}

}  // namespace

std::string render_function_summary(model::Profile& p, FuncId f, const std::vector<uint32_t>& metrics,
                                    const NameOptions& names) {
  const auto& ft = p.functions();
  const auto& e = ft.at(f);
  const auto& totals = p.totals();
  std::vector<Field> fields;
  for (uint32_t m : metrics) {
    const auto& d = model::metric_def(m);
    for (char fl : {'e', 'i'}) {
      int64_t v = function_value(p, f, fl, m);
      fields.push_back({fmt::format("{} {}", fl == 'e' ? "Exclusive" : "Inclusive", d.display),
                        fmt::format("{} ({:5.1f}%)", format_value(m, v), percent_of(v, totals[m]))});
    }
  }
  fields.push_back({"Size", fmt::format("{}", e.size)});
  fields.push_back({"PC Address", fmt::format("{}:0x{:08x}", e.object, e.addr)});
  fields.push_back({"Source File", e.source_file.empty() ? "(unknown)" : e.source_file});
  fields.push_back({"Object File", e.pseudo ? "(unknown)" : object_path(ft, f)});
  fields.push_back({"Load Object", object_path(ft, f)});
  fields.push_back({"Mangled Name", e.mangled == e.name ? "" : e.mangled});
  std::string aliases;
  for (FuncId g : aliases_of(ft, f)) aliases += (aliases.empty() ? "" : ", ") + ft.at(g).name;
  fields.push_back({"Aliases", aliases});
  fields.push_back({"Function ID", fmt::format("{}", f)});
  size_t w = 0;
  for (const auto& x : fields) w = std::max(w, x.label.size());
  std::string out = function_display_name(ft, f, names) + "\n";
  for (const auto& x : fields) {
    std::string line = fmt::format("        {:>{}}:  {}", x.label, w, x.value);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

json::Value function_summary_json(model::Profile& p, FuncId f, const std::vector<uint32_t>& metrics,
                                  const NameOptions& names) {
  const auto& ft = p.functions();
  const auto& e = ft.at(f);
  const auto& totals = p.totals();
  json::Value ms = json::Value::array();
  for (uint32_t m : metrics) {
    int64_t ex = function_value(p, f, 'e', m), in = function_value(p, f, 'i', m);
    ms.push(json::Value::object()
                .set("metric", model::metric_def(m).name)
                .set("title", model::metric_def(m).display)
                .set("unit", unit_name(m))
                .set("exclusive", ex)
                .set("exclusive_percent", percent_of(ex, totals[m]))
                .set("inclusive", in)
                .set("inclusive_percent", percent_of(in, totals[m])));
  }
  json::Value aliases = json::Value::array();
  for (FuncId g : aliases_of(ft, f)) aliases.push(ft.at(g).name);
  return json::Value::object()
      .set("id", f)
      .set("name", function_display_name(ft, f, names))
      .set("metrics", std::move(ms))
      .set("size", e.size)
      .set("object_index", e.object)
      .set("address", e.addr)
      .set("source_file", e.source_file)
      .set("load_object", object_path(ft, f))
      .set("mangled_name", e.mangled)
      .set("aliases", std::move(aliases))
      .set("pseudo", e.pseudo);
}

namespace {

struct TreeNode {
  FuncId func;
  std::array<int64_t, model::kMetricCount> excl{}, incl{};
  std::map<FuncId, size_t> children;  // func -> node index
};

std::vector<TreeNode> build_tree(model::Profile& p) {
  std::vector<TreeNode> nodes(1);
  nodes[0].func = p.functions().total();
  for (const auto& a : p.aggregates()) {
    size_t cur = 0;
    auto add = [&](std::array<int64_t, model::kMetricCount>& dst) {
      for (uint32_t m = 0; m < model::kMetricCount; ++m) dst[m] += a.values[m];
    };
    add(nodes[0].incl);
    for (size_t k = a.funcs.size(); k-- > 0;) {
      FuncId f = a.funcs[k];
      auto it = nodes[cur].children.find(f);
      size_t next;
      if (it == nodes[cur].children.end()) {
        next = nodes.size();
        nodes[cur].children.emplace(f, next);
        nodes.push_back(TreeNode{f, {}, {}, {}});
      } else {
        next = it->second;
      }
      cur = next;
      add(nodes[cur].incl);
    }
    add(nodes[cur].excl);
  }
  return nodes;
}

// Depth-first order of (node, depth), children by the sort metric's inclusive value.
std::vector<std::pair<size_t, int>> tree_order(const std::vector<TreeNode>& nodes, const model::FunctionTable& ft,
                                               const SortSpec& sort, size_t limit) {
  std::vector<std::pair<size_t, int>> out, stack{{0, 0}};
  while (!stack.empty() && (!limit || out.size() < limit)) {
    auto [n, depth] = stack.back();
    stack.pop_back();
    out.push_back({n, depth});
    std::vector<size_t> kids;
    for (const auto& [f, c] : nodes[n].children) kids.push_back(c);
    std::stable_sort(kids.begin(), kids.end(), [&](size_t a, size_t b) {
      if (sort.flavor != 0) {
        int64_t ka = nodes[a].incl[sort.metric], kb = nodes[b].incl[sort.metric];
        if (ka != kb) return sort.reverse ? ka < kb : ka > kb;
      }
      return ft.at(nodes[a].func).name < ft.at(nodes[b].func).name;
    });
    for (size_t i = kids.size(); i-- > 0;) stack.push_back({kids[i], depth + 1});
  }
  return out;
}

int64_t node_value(const TreeNode& n, const ViewColumn& c) {
  return c.flavor == 'e' ? n.excl[c.metric] : n.incl[c.metric];
}

}  // namespace

std::string render_call_tree(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                             size_t limit, const NameOptions& names) {
  auto nodes = build_tree(p);
  TextTable t(cols);
  const auto& totals = p.totals();
  t.set_totals(std::vector<int64_t>(totals.begin(), totals.end()));
  for (auto [n, depth] : tree_order(nodes, p.functions(), sort, limit)) {
    std::vector<int64_t> vals;
    for (const auto& c : cols) vals.push_back(node_value(nodes[n], c));
    t.add_row(vals, std::string(size_t(depth) * 2, ' ') + "+-" + function_display_name(p.functions(), nodes[n].func, names));
  }
  SortSpec by = sort;
  if (by.flavor) by.flavor = 'i';
  return fmt::format("Functions Call Tree. Sorted by metric: {}\n\n{}", sort_description(by), t.render());
}

json::Value call_tree_json(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                           const NameOptions& names) {
  auto nodes = build_tree(p);
  const auto& totals = p.totals();
  auto order = tree_order(nodes, p.functions(), sort, limit);
  // Rebuild nesting from the depth-first order (so the limit applies as in the text).
  struct Open {
    json::Value node, children = json::Value::array();
  };
  json::Value root;
  std::vector<Open> open;  // one per depth
  auto close_to = [&](size_t depth) {
    while (open.size() > depth) {
      Open done = std::move(open.back());
      open.pop_back();
      done.node.set("children", std::move(done.children));
      if (open.empty()) root = std::move(done.node);
      else open.back().children.push(std::move(done.node));
    }
  };
  for (auto [n, depth] : order) {
    close_to(size_t(depth));
    json::Value vals = json::Value::array();
    for (const auto& c : cols) {
      int64_t v = node_value(nodes[n], c);
      if (c.percent) vals.push(percent_of(v, totals[c.metric]));
      else vals.push(v);
    }
    open.push_back(Open{json::Value::object()
                            .set("id", nodes[n].func)
                            .set("name", function_display_name(p.functions(), nodes[n].func, names))
                            .set("values", std::move(vals))});
  }
  close_to(0);
  json::Value columns = json::Value::array();
  for (const auto& c : cols) columns.push(column_json(c));
  return json::Value::object().set("sort", sort_json(sort)).set("columns", std::move(columns)).set("root", std::move(root));
}

}  // namespace erkit::views
