// The OpenMP user model (seed-spec §2.8, §6.10): how a sample of an OpenMP program's thread is
// shown in the user and expert view modes. Machine stacks (as measured) are turned into the
// program's logical structure: a worker's stack is re-rooted under the master's call path at the
// region's fork point ("foo -- OMP parallel region from line N" -> foo -> main), the runtime's
// frames (libgomp, libomp, the collector's trampolines) are removed, and a leaf inside the runtime
// becomes the pseudo-function of the thread's OpenMP state (<OMP-implicit_barrier>, ...). In the
// expert mode the region's frame also names the outlined function ([foo._omp_fn.0],
// [.omp_outlined.]). The machine mode leaves stacks as they are.
//
// One instance per Profile; it interns its pseudo-functions in the profile's function table.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/function_table.h"
#include "model/stack_resolver.h"
#include "model/viewmode/view_mode.h"

namespace erkit::model::viewmode {


// The pseudo-function name of an OpenMP state ("<OMP-implicit_barrier>"), "" for work.
std::string omp_state_function(uint32_t state);

class OpenMpView {
 public:
  OpenMpView(FunctionTable& funcs, const StackResolver& resolver) : funcs_(funcs), resolver_(resolver) {}

  // The state a sample stands for, from the recorded state and where the sample sits: work
  // whose leaf is inside the runtime is overhead (scheduling, forking); a recorded wait whose
  // leaf is program code run by the runtime (a task executed while waiting) is work.
  // A sample taken off the CPU (`blocked`) has the stack of the thread's latest CPU sample,
  // which may be older than its state: its recorded wait state is kept.
  uint32_t effective_state(const ResolvedStack& machine, uint32_t recorded, bool blocked = false) const;

  // The stack shown in `mode` (not Machine) for a sample with machine stack `machine`, effective
  // state `state`, and the fork-point stack of its region (null outside any region). A state
  // other than work on a stack whose leaf is program code (an off-CPU sample's older stack) is
  // shown at the runtime's call: the program frames on the leaf side of the first runtime or
  // outlined frame are left out.
  ResolvedStack transform(const ResolvedStack& machine, uint32_t state, const ResolvedStack* fork, ViewMode mode);

  // One level of the context a sample runs in: the fork stack of its parallel region, or the
  // creation stack of its explicit task (`task`). A fork stack taken inside an enclosing region
  // (a nested region, or a task created in a region) is itself shown under the next level, so a
  // chain goes from the sample's own level to the outermost region.
  struct ForkLevel {
    const ResolvedStack* stack;
    bool task;
  };
  // The same with the whole chain: nested regions and tasks shown through all their levels
  // ("bar -- OMP parallel region" -> bar -> "foo -- OMP parallel region" -> foo -> main;
  // "foo -- OMP task from line N" -> "foo -- OMP parallel region" -> foo -> main).
  ResolvedStack transform(const ResolvedStack& machine, uint32_t state, const std::vector<ForkLevel>& chain,
                          ViewMode mode);

  // A region's (or GOMP task's) fork chain from the experiment's records, noted before the
  // samples are transformed: a sample that carries no fork stack (taken before the thread was
  // told its region, or written with an older stack than its state) but has the chain's leading
  // outlined function on its stack is shown under that chain. An outlined function forked from
  // two different places is ambiguous and left as it is; of one place the longest chain is kept.
  void note_fork(const std::vector<ForkLevel>& chain);

  bool is_runtime(FuncId f) const;
  bool is_outlined(FuncId f) const;

 private:
  FuncId pseudo(uint32_t state);
  FuncId region(FuncId outlined, const FrameRef* site, ViewMode mode);
  FuncId region_at(const FrameRef& site, ViewMode mode);
  // A task's frame: "<creator> -- OMP task from line N" (expert: "[outlined]" appended when known).
  FuncId task_frame(FuncId outlined, const FrameRef* site, const std::vector<FrameRef>& context, ViewMode mode);
  ResolvedStack transform_at(const ResolvedStack& machine, uint32_t state, const std::vector<ForkLevel>& chain,
                             size_t level, ViewMode mode);
  // The user frames of chain[level]'s stack from `from` on, through the enclosing levels.
  std::vector<FrameRef> fork_context(const std::vector<ForkLevel>& chain, size_t level, size_t from, ViewMode mode);
  // The outermost of the consecutive outlined frames from frames[i] on (i itself if alone).
  size_t outermost_outlined(const std::vector<FrameRef>& frames, size_t i) const;
  // frames without the runtime's, appended to out
  void append_user(const std::vector<FrameRef>& frames, size_t from, size_t to, std::vector<FrameRef>* out) const;

  // The outlined function a fork stack starts with (the outermost of its entry's inline frames),
  // 0 if none (libomp task creation stacks start in the runtime).
  FuncId leading_outlined(const ResolvedStack& fork, bool task) const;
  struct KnownFork {
    std::vector<ResolvedStack> stacks;  // copies: resolved stacks are forgotten on a mode change
    std::vector<bool> task;
    bool ambiguous = false;
  };
  std::unordered_map<FuncId, KnownFork> known_forks_;  // outlined function -> its fork chain

  FunctionTable& funcs_;
  const StackResolver& resolver_;
  mutable std::unordered_map<FuncId, uint8_t> kind_;  // FuncId -> 1 runtime, 2 outlined, 3 neither
  std::unordered_map<std::string, FuncId> named_;
  std::unordered_map<std::string, FuncId> expert_of_;  // user name -> expert region function
  uint8_t kind(FuncId f) const;
};

}  // namespace erkit::model::viewmode
