// The dynamic call tree (gprofng's `calltree`) rendered: the trie is the model's
// (model/call_tree.h); the text and the JSON are written row by row, never held as per-row cells.
#include "views/call_tree.h"

#include <fmt/format.h>

#include <functional>

#include "model/call_tree.h"

namespace erkit::views {

using model::FuncId;

namespace {

using model::CallTree;
using model::CallTreeSlot;
using Row = model::CallTreeRow;

// The tree, its slots and the slot of each column and of the sort.
struct Prepared {
  CallTree tree;
  std::vector<size_t> col_slot;
  size_t sort_slot = 0;
};

Prepared prepare(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort) {
  std::vector<CallTreeSlot> slots;
  Prepared out;
  for (const auto& c : cols) out.col_slot.push_back(model::call_tree_slot(slots, CallTreeSlot{c.flavor == 'e', c.metric}));
  out.sort_slot = model::call_tree_slot(slots, CallTreeSlot{false, sort.metric});
  out.tree = model::build_call_tree(p, slots);
  return out;
}

// Display names by FuncId, computed once.
std::vector<std::string> display_names(const model::FunctionTable& ft, const NameOptions& names) {
  std::vector<std::string> out(ft.size());
  for (FuncId f = 0; f < ft.size(); ++f) out[f] = function_display_name(ft, f, names);
  return out;
}

}  // namespace

void write_call_tree(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                     const NameOptions& names, const std::function<void(std::string_view)>& write) {
  Prepared pr = prepare(p, cols, sort);
  const CallTree& t = pr.tree;
  auto order = model::call_tree_order(pr.tree, p.functions(), sort, pr.sort_slot, limit);
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

std::string render_call_tree(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort,
                             size_t limit, const NameOptions& names) {
  std::string out;
  write_call_tree(p, cols, sort, limit, names, [&](std::string_view chunk) { out += chunk; });
  return out;
}

json::Value call_tree_json(const model::Profile& p, const std::vector<ViewColumn>& cols, const SortSpec& sort, size_t limit,
                           const NameOptions& names) {
  Prepared pr = prepare(p, cols, sort);
  const CallTree& t = pr.tree;
  const auto& totals = p.totals();
  auto order = model::call_tree_order(pr.tree, p.functions(), sort, pr.sort_slot, limit);
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
