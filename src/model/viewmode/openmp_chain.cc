#include "model/viewmode/openmp_chain.h"

#include <algorithm>

#include "format/experiment_format.h"

namespace erkit::model::viewmode {

ForkParents fork_parents(const reader::Experiment& e) {
  ForkParents out;
  std::unordered_map<uint64_t, uint64_t> region_stack;  // region id -> fork stack id
  for (const auto& r : e.omp_regions) region_stack[r.region_id] = r.stack_id;
  auto stack_of = [&](uint64_t region) -> uint64_t {
    auto it = region_stack.find(region);
    return it == region_stack.end() ? 0 : it->second;
  };
  for (const auto& r : e.omp_regions) {
    uint64_t p = r.parent_id ? stack_of(r.parent_id) : 0;
    if (p && p != r.stack_id && r.stack_id != format::kNoStackId) out.try_emplace(r.stack_id, ForkParent{p, false});
  }
  for (const auto& t : e.omp_tasks) {
    if (t.stack_id == format::kNoStackId) continue;
    uint64_t p = t.region_id ? stack_of(t.region_id) : 0;
    auto [it, fresh] = out.try_emplace(t.stack_id, ForkParent{p == t.stack_id ? 0 : p, true});
    if (!fresh) it->second.task = true;
  }
  return out;
}

std::vector<std::pair<uint64_t, bool>> fork_chain(const ForkParents& parents, uint64_t fork, size_t max_depth) {
  std::vector<std::pair<uint64_t, bool>> chain;
  while (fork && fork != format::kNoStackId && chain.size() < max_depth) {
    if (std::any_of(chain.begin(), chain.end(), [&](const auto& c) { return c.first == fork; })) break;
    auto it = parents.find(fork);
    chain.emplace_back(fork, it != parents.end() && it->second.task);
    fork = it == parents.end() ? 0 : it->second.parent;
  }
  return chain;
}

}  // namespace erkit::model::viewmode
