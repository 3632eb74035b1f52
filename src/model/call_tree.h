// The dynamic call tree (gprofng's `calltree`) as a trie over the stack aggregates: one node
// per distinct call path. Memory is linear in the number of nodes: per node its function,
// children range and only the metric values asked for (slots), not every metric.
// views/call_tree.h renders it (text, JSON).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/profile.h"
#include "model/query.h"

namespace erkit::model {

// A value a column or the sort reads: exclusive or inclusive of one metric.
struct CallTreeSlot {
  bool excl;
  uint32_t metric;
  bool operator==(const CallTreeSlot&) const = default;
};

struct CallTree {
  std::vector<FuncId> func;      // by node; node 0 is <Total>
  std::vector<uint32_t> parent;  // by node (emptied once the children ranges are built)
  std::vector<CallTreeSlot> slots;
  std::vector<int64_t> vals;          // node * slots.size() + slot
  std::vector<uint32_t> first_child;  // children of n: kids[first_child[n] .. first_child[n+1])
  std::vector<uint32_t> kids;

  int64_t value(uint32_t n, size_t slot) const { return vals[size_t(n) * slots.size() + slot]; }
  uint32_t add_node(FuncId f, uint32_t up);
};

// The index of s in slots, appended if absent.
size_t call_tree_slot(std::vector<CallTreeSlot>& slots, CallTreeSlot s);

// The trie of the profile's aggregates (under its filter, selection and view mode).
CallTree build_call_tree(const Profile& p, const std::vector<CallTreeSlot>& slots);

struct CallTreeRow {
  uint32_t node;
  uint32_t depth;
};

// Depth-first order of (node, depth), children by the sort metric's inclusive value (slot
// sort_slot), then by name; at most limit rows (0: all). Sorts t's children in place.
std::vector<CallTreeRow> call_tree_order(CallTree& t, const FunctionTable& ft, const SortSpec& sort, size_t sort_slot,
                                         size_t limit);

}  // namespace erkit::model
