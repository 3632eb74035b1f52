// The call-tree trie (model/call_tree.h). Stacks sorted root first share their common
// prefix with the previous one, so each distinct call path becomes one node without lookup.
#include "model/call_tree.h"

#include <algorithm>
#include <numeric>

namespace erkit::model {

uint32_t CallTree::add_node(FuncId f, uint32_t up) {
  func.push_back(f);
  parent.push_back(up);
  vals.resize(vals.size() + slots.size(), 0);
  return uint32_t(func.size() - 1);
}

size_t call_tree_slot(std::vector<CallTreeSlot>& slots, CallTreeSlot s) {
  auto it = std::find(slots.begin(), slots.end(), s);
  if (it != slots.end()) return size_t(it - slots.begin());
  slots.push_back(s);
  return slots.size() - 1;
}

// Stacks sorted root first share their common prefix with the previous one, so each
// distinct call path becomes one node without any lookup, and siblings appear by FuncId.
CallTree build_call_tree(const Profile& p, const std::vector<CallTreeSlot>& slots) {
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

// Depth-first order of (node, depth), children by the sort metric's inclusive value.
std::vector<CallTreeRow> call_tree_order(CallTree& t, const FunctionTable& ft, const SortSpec& sort, size_t sort_slot,
                                         size_t limit) {
  std::vector<CallTreeRow> out, stack{{0, 0}};
  while (!stack.empty() && (!limit || out.size() < limit)) {
    CallTreeRow r = stack.back();
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

}  // namespace erkit::model
