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
  const std::vector<size_t> creator = creating_tasks(e.omp_tasks);
  for (size_t i = 0; i < e.omp_tasks.size(); ++i) {
    const auto& t = e.omp_tasks[i];
    if (t.stack_id == format::kNoStackId) continue;
    uint64_t p = t.region_id ? stack_of(t.region_id) : 0;
    // Created in a task: under the creating task (a task that creates tasks at its own creation
    // point, whose stacks are the same, stays under its region).
    if (creator[i] != kNoTask && e.omp_tasks[creator[i]].stack_id != format::kNoStackId &&
        e.omp_tasks[creator[i]].stack_id != t.stack_id)
      p = e.omp_tasks[creator[i]].stack_id;
    auto [it, fresh] = out.try_emplace(t.stack_id, ForkParent{p == t.stack_id ? 0 : p, true});
    if (!fresh) it->second.task = true;
  }
  return out;
}

std::vector<size_t> creating_tasks(const std::vector<format::OmpTaskRecord>& tasks) {
  std::vector<size_t> out(tasks.size(), kNoTask);
  // Per thread, its tasks by begin (the longer first at equal begins), each with the innermost
  // task whose span contains its begin.
  struct Span {
    uint64_t begin, end;
    size_t index, enclosing;  // enclosing: position in the thread's list, kNoTask if none
  };
  std::unordered_map<uint32_t, std::vector<Span>> by_thread;
  for (size_t i = 0; i < tasks.size(); ++i)
    by_thread[tasks[i].tid].push_back({tasks[i].tstamp_ns, tasks[i].tstamp_ns + tasks[i].duration_ns, i, kNoTask});
  for (auto& [tid, spans] : by_thread) {
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
      return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
    });
    std::vector<size_t> open;
    for (size_t j = 0; j < spans.size(); ++j) {
      while (!open.empty() && spans[open.back()].end < spans[j].begin) open.pop_back();
      spans[j].enclosing = open.empty() ? kNoTask : open.back();
      open.push_back(j);
    }
  }
  for (size_t i = 0; i < tasks.size(); ++i) {
    auto it = by_thread.find(tasks[i].create_tid);
    if (it == by_thread.end()) continue;
    const std::vector<Span>& spans = it->second;
    const uint64_t at = tasks[i].create_ns;
    auto after = std::upper_bound(spans.begin(), spans.end(), at, [](uint64_t t, const Span& s) { return t < s.begin; });
    size_t j = after == spans.begin() ? kNoTask : size_t(after - spans.begin()) - 1;
    while (j != kNoTask && (spans[j].end < at || spans[j].index == i)) j = spans[j].enclosing;
    if (j != kNoTask) out[i] = spans[j].index;
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
