// The context levels of an OpenMP sample (docs/openmp.md): a fork stack (a parallel region's, or
// an explicit task's creation stack) taken inside an enclosing region has that region's fork
// stack as its parent. The experiment's region and task records give the relation: a region's
// stack -> its parent region's stack; a task's creation stack -> its creating thread's region's.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "reader/experiment.h"

namespace erkit::model::viewmode {

struct ForkParent {
  uint64_t parent = 0;  // the enclosing level's fork stack id, 0 at the top level
  bool task = false;    // this fork stack is a task's creation stack
};
using ForkParents = std::unordered_map<uint64_t, ForkParent>;

ForkParents fork_parents(const reader::Experiment& e);

// The fork stack ids from `fork` outwards (at most `max_depth` levels; a cycle ends it).
std::vector<std::pair<uint64_t, bool>> fork_chain(const ForkParents& parents, uint64_t fork, size_t max_depth = 16);

}  // namespace erkit::model::viewmode
