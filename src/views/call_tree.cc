// The dynamic call tree (gprofng's `calltree`), built from the stack aggregates as a trie.
// Memory is linear in the number of distinct call-path nodes: per node its function, parent,
// children range and only the metric values the columns and the sort read (not every
// metric); the text and the JSON are written row by row, never held as per-row cells.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "views/function_summary.h"

namespace erkit::views {

using model::FuncId;

namespace {

// A value a column or the sort reads: exclusive or inclusive of one metric.
struct Slot {
  bool excl;
  uint32_t metric;
  bool operator==(const Slot&) const = default;
};

struct CallTree {
  std::vector<FuncId> func;      // by node; node 0 is <Total>
  std::vector<uint32_t> parent;  // by node
  std::vector<Slot> slots;
  std::vector<int64_t> vals;          // node * slots.size() + slot
  std::vector<uint32_t> first_child;  // children of n: kids[first_child[n] .. first_child[n+1])
  std::vector<uint32_t> kids;

  int64_t value(uint32_t n, size_t slot) const { return vals[size_t(n) * slots.size() + slot]; }
  uint32_t add_node(FuncId f, uint32_t up) {
    func.push_back(f);
    parent.push_back(up);
    vals.resize(vals.size() + slots.size(), 0);
    return uint32_t(func.size() - 1);
  }
};

size_t slot_of(std::vector<Slot>& slots, Slot s) {
  auto it = std::find(slots.begin(), slots.end(), s);
  if (it != slots.end()) return size_t(it - slots.begin());
  slots.push_back(s);
  return slots.size() - 1;
}

// Stacks sorted root first share their common prefix with the previous one, so each
// distinct call path becomes one node without any lookup, and siblings appear by FuncId.
CallTree build_tree(model::Profile& p, const std::vector<Slot>& slots) {
  CallTree t;
  t.slots = slots;
  const auto& aggs = p.aggregates();
  std::vector<uint32_t> order(aggs.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const auto &fa = aggs[a].funcs, &fb = aggs[b].funcs;
    return std::lexicographical_compare(fa.rbegin(), fa.rend(), fb.rbegin(), fb.rend());
  });
  t.add_node(p.functions().total(), UINT32_MAX);
  std::vector<uint32_t> path{0};  // nodes of the current stack, root first
  const std::vector<FuncId>* prev = nullptr;
  std::vector<size_t> incl_slots, excl_slots;
  for (size_t s = 0; s < slots.size(); ++s) (slots[s].excl ? excl_slots : incl_slots).push_back(s);
  const size_t ns = slots.size();
  for (uint32_t ai : order) {
    const auto& a = aggs[ai];
    const auto& fr = a.funcs;  // leaf first
    size_t common = 0;
    if (prev) {
      const size_t lim = std::min(prev->size(), fr.size());
      while (common < lim && (*prev)[prev->size() - 1 - common] == fr[fr.size() - 1 - common]) ++common;
    }
    path.resize(common + 1);
    for (size_t k = common; k < fr.size(); ++k) path.push_back(t.add_node(fr[fr.size() - 1 - k], path.back()));
    prev = &fr;
    for (uint32_t n : path)
      for (size_t s : incl_slots) t.vals[n * ns + s] += a.values[slots[s].metric];
    for (size_t s : excl_slots) t.vals[path.back() * ns + s] += a.values[slots[s].metric];
  }
  // Children ranges (nodes were created in depth-first order, siblings by FuncId).
  const size_t nn = t.func.size();
  t.first_child.assign(nn + 1, 0);
  for (size_t n = 1; n < nn; ++n) t.first_child[t.parent[n] + 1]++;
  for (size_t n = 0; n < nn; ++n) t.first_child[n + 1] += t.first_child[n];
  t.kids.resize(nn ? nn - 1 : 0);
  std::vector<uint32_t> fill(t.first_child.begin(), t.first_child.end() - 1);
  for (size_t n = 1; n < nn; ++n) t.kids[fill[t.parent[n]]++] = uint32_t(n);
  t.parent = {};
  return t;
}

struct Row {
  uint32_t node;
  uint32_t depth;
};

// Depth-first order of (node, depth), children by the sort metric's inclusive value.
std::vector<Row> tree_order(CallTree& t, const model::FunctionTable& ft, const SortSpec& sort, size_t sort_slot,
                            size_t limit) {
  std::vector<Row> out, stack{{0, 0}};
  while (!stack.empty() && (!limit || out.size() < limit)) {
    Row r = stack.back();
    stack.pop_back();
    out.push_back(r);
    auto b = t.kids.begin() + t.first_child[r.node], e = t.kids.begin() + t.first_child[r.node + 1];
    std::stable_sort(b, e, [&](uint32_t x, uint32_t y) {
      if (sort.flavor != 0) {
        int64_t kx = t.value(x, sort_slot), ky = t.value(y, sort_slot);
        if (kx != ky) return sort.reverse ? kx < ky : kx > ky;
      }
      return ft.at(t.func[x]).name < ft.at(t.func[y]).name;
    });
    for (auto it = e; it != b;) stack.push_back({*--it, r.depth + 1});
  }
  return out;
}

// The tree, its slots and the slot of each column and of the sort.
struct Prepared {
  CallTree tree;
  std::vector<size_t> col_slot;
  size_t sort_slot = 0;
};

Prepared prepare(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort) {
  std::vector<Slot> slots;
  Prepared out;
  for (const auto& c : cols) out.col_slot.push_back(slot_of(slots, Slot{c.flavor == 'e', c.metric}));
  out.sort_slot = slot_of(slots, Slot{false, sort.metric});
  out.tree = build_tree(p, slots);
  return out;
}

// Display names by FuncId, computed once.
std::vector<std::string> display_names(const model::FunctionTable& ft, const NameOptions& names) {
  std::vector<std::string> out(ft.size());
  for (FuncId f = 0; f < ft.size(); ++f) out[f] = function_display_name(ft, f, names);
  return out;
}

}  // namespace

void write_call_tree(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                     const NameOptions& names, const std::function<void(std::string_view)>& write) {
  Prepared pr = prepare(p, cols, sort);
  const CallTree& t = pr.tree;
  auto order = tree_order(pr.tree, p.functions(), sort, pr.sort_slot, limit);
  TextTable table(cols);
  const auto& totals = p.totals();
  table.set_totals(std::vector<int64_t>(totals.begin(), totals.end()));
  std::vector<int64_t> vals(cols.size());
  auto row_values = [&](uint32_t n) {
    for (size_t i = 0; i < cols.size(); ++i) vals[i] = t.value(n, pr.col_slot[i]);
    return vals.data();
  };
  for (const Row& r : order) table.observe(row_values(r.node));
  const auto dn = display_names(p.functions(), names);
  SortSpec by = sort;
  if (by.flavor) by.flavor = 'i';
  std::string out = fmt::format("Functions Call Tree. Sorted by metric: {}\n\n", sort_description(by));
  table.append_header(out);
  std::string name;
  constexpr size_t kChunk = 1 << 20;
  for (const Row& r : order) {
    name.assign("+-");
    name += dn[t.func[r.node]];
    table.append_row(out, row_values(r.node), " ", name, size_t(r.depth) * 2);
    if (out.size() >= kChunk) {
      write(out);
      out.clear();
    }
  }
  write(out);
}

std::string render_call_tree(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                             size_t limit, const NameOptions& names) {
  std::string out;
  write_call_tree(p, cols, sort, limit, names, [&](std::string_view chunk) { out += chunk; });
  return out;
}

json::Value call_tree_json(model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                           const NameOptions& names) {
  Prepared pr = prepare(p, cols, sort);
  const CallTree& t = pr.tree;
  const auto& totals = p.totals();
  auto order = tree_order(pr.tree, p.functions(), sort, pr.sort_slot, limit);
  std::vector<std::string> quoted = display_names(p.functions(), names);
  for (auto& s : quoted) s = json::escape(s);
  // Written as text: {"id":..,"name":..,"values":[..],"children":[..]} nested in the
  // depth-first order (so the limit applies as in the text form).
  std::string out;
  size_t open = 0;  // nodes whose children array is still open
  auto close_to = [&](size_t depth) {
    for (; open > depth; --open) out += "]}";
  };
  for (const Row& r : order) {
    close_to(r.depth);
    if (r.depth > 0 && out.back() != '[') out += ',';
    out += "{\"id\":";
    json::Value(t.func[r.node]).append_to(out);
    out += ",\"name\":";
    out += quoted[t.func[r.node]];
    out += ",\"values\":[";
    for (size_t i = 0; i < cols.size(); ++i) {
      if (i) out += ',';
      int64_t v = t.value(r.node, pr.col_slot[i]);
      if (cols[i].percent) json::Value(percent_of(v, totals[cols[i].metric])).append_to(out);
      else json::Value(v).append_to(out);
    }
    out += "],\"children\":[";
    ++open;
  }
  close_to(0);
  json::Value columns = json::Value::array();
  for (const auto& c : cols) columns.push(column_json(c));
  return json::Value::object()
      .set("sort", sort_json(sort))
      .set("columns", std::move(columns))
      .set("root", json::Value::raw(std::move(out)));
}

}  // namespace erkit::views
