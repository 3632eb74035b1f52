// The context levels of an OpenMP sample (docs/openmp.md): a fork stack (a parallel region's, or
// an explicit task's creation stack) taken inside an enclosing region has that region's fork
// stack as its parent. The experiment's region and task records give the relation: a region's
// stack -> its parent region's stack; a task's creation stack -> its creating task's creation
// stack, or its creating thread's region's.
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

// For each task record, the index of the task that created it (the innermost task the creating
// thread was running at the creation time: a tied task runs on one thread, and the tasks a
// thread runs while another is suspended run inside its span), or kNoTask when it was created
// by a region's implicit task. A task created in a task then has that task's creation stack as
// its parent level, so it is shown under its creating task.
inline constexpr size_t kNoTask = size_t(-1);
std::vector<size_t> creating_tasks(const std::vector<format::OmpTaskRecord>& tasks);

// The fork stack ids from `fork` outwards (at most `max_depth` levels; a cycle ends it).
std::vector<std::pair<uint64_t, bool>> fork_chain(const ForkParents& parents, uint64_t fork, size_t max_depth = 16);

}  // namespace erkit::model::viewmode
