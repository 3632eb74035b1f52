#include "model/viewmode/openmp_view.h"

#include <fmt/format.h>

#include "format/experiment_format.h"

namespace erkit::model::viewmode {

std::string omp_state_function(uint32_t state) {
  switch (state) {
    case format::kOmpOverhead: return "<OMP-overhead>";
    case format::kOmpIdle: return "<OMP-idle>";
    case format::kOmpImplicitBarrier: return "<OMP-implicit_barrier>";
    case format::kOmpExplicitBarrier: return "<OMP-explicit_barrier>";
    case format::kOmpReduction: return "<OMP-reduction>";
    case format::kOmpLockWait: return "<OMP-lock_wait>";
    case format::kOmpCriticalWait: return "<OMP-critical_section_wait>";
    case format::kOmpOrderedWait: return "<OMP-ordered_section_wait>";
    case format::kOmpAtomicWait: return "<OMP-atomic_section_wait>";
    case format::kOmpTaskWait: return "<OMP-taskwait>";
    default: return "";
  }
}

namespace {
bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }
}  // namespace

uint8_t OpenMpView::kind(FuncId f) const {
  auto it = kind_.find(f);
  if (it != kind_.end()) return it->second;
  const FunctionEntry& e = funcs_.at(f);
  uint8_t k = 3;
  if (e.object != kNoObject) {
    const std::string& obj = funcs_.object(e.object).name;
    if (starts_with(obj, "libgomp.so") || starts_with(obj, "libomp.so") || starts_with(obj, "libiomp5.so") ||
        starts_with(obj, "libcollector"))
      k = 1;
  }
  const std::string& n = e.short_name.empty() ? e.name : e.short_name;
  if (k == 3 && (n.find("._omp_fn.") != std::string::npos || starts_with(n, ".omp_outlined.") || starts_with(n, ".omp_task_entry.") ||
                 starts_with(n, "__omp_outlined__")))
    k = 2;
  kind_.emplace(f, k);
  return k;
}

bool OpenMpView::is_runtime(FuncId f) const { return kind(f) == 1; }
bool OpenMpView::is_outlined(FuncId f) const { return kind(f) == 2; }

uint32_t OpenMpView::effective_state(const ResolvedStack& m, uint32_t s, bool blocked) const {
  if (s == format::kOmpNone) s = format::kOmpWork;
  if (m.frames.empty()) return s;
  bool leaf_runtime = is_runtime(m.frames.front().func);
  if (s == format::kOmpWork && leaf_runtime) {
    // In the runtime while working: scheduling or forking, unless the thread is (also) under
    // an outlined function's synchronisation call that the collector did not see.
    return format::kOmpOverhead;
  }
  if (!blocked && !leaf_runtime && (s == format::kOmpImplicitBarrier || s == format::kOmpExplicitBarrier || s == format::kOmpIdle ||
                        s == format::kOmpTaskWait)) {
    // Program code below a runtime frame: a task run while waiting is work.
    for (const FrameRef& fr : m.frames)
      if (is_runtime(fr.func)) return format::kOmpWork;
  }
  return s;
}

FuncId OpenMpView::pseudo(uint32_t state) {
  std::string name = omp_state_function(state);
  auto it = named_.find(name);
  if (it != named_.end()) return it->second;
  FunctionEntry e;
  e.name = e.short_name = name;
  e.pseudo = true;
  FuncId f = funcs_.intern_named(e);
  named_.emplace(name, f);
  return f;
}

FuncId OpenMpView::region(FuncId outlined, const FrameRef* site, ViewMode mode) {
  const FunctionEntry& o = funcs_.at(outlined);
  std::string parent, outlined_name = o.short_name.empty() ? o.name : o.short_name;
  uint32_t line = 0;
  if (site) {
    const FunctionEntry& p = funcs_.at(site->func);
    parent = p.short_name.empty() ? p.name : p.short_name;
    if (site->line < resolver_.lines().size()) line = resolver_.lines()[site->line].line;
  } else {
    auto dot = outlined_name.find("._omp_fn.");  // GCC names the parent in the outlined function
    parent = dot == std::string::npos ? "<unknown>" : outlined_name.substr(0, dot);
  }
  std::string name = line ? fmt::format("{} -- OMP parallel region from line {}", parent, line)
                          : fmt::format("{} -- OMP parallel region", parent);
  std::string base = name;
  if (mode == ViewMode::kExpert) name += fmt::format(" [{}]", outlined_name);
  auto it = named_.find(name);
  if (it != named_.end()) return it->second;
  FunctionEntry e;
  e.name = e.short_name = name;
  e.object = o.object;
  e.source_file = o.source_file;
  FuncId f = funcs_.intern_named(e);
  named_.emplace(name, f);
  if (mode == ViewMode::kExpert) expert_of_.emplace(base, f);
  return f;
}

FuncId OpenMpView::region_at(const FrameRef& site, ViewMode mode) {
  // The outlined function is not on this stack. In the expert mode the name a sample with the
  // outlined function gave this region is reused when there is one.
  const FunctionEntry& p = funcs_.at(site.func);
  std::string parent = p.short_name.empty() ? p.name : p.short_name;
  uint32_t line = site.line < resolver_.lines().size() ? resolver_.lines()[site.line].line : 0;
  std::string base = line ? fmt::format("{} -- OMP parallel region from line {}", parent, line)
                          : fmt::format("{} -- OMP parallel region", parent);
  if (mode == ViewMode::kExpert) {
    auto it = expert_of_.find(base);
    if (it != expert_of_.end()) return it->second;
  }
  auto it = named_.find(base);
  if (it != named_.end()) return it->second;
  FunctionEntry e;
  e.name = e.short_name = base;
  e.object = p.object;
  e.source_file = p.source_file;
  FuncId f = funcs_.intern_named(e);
  named_.emplace(base, f);
  return f;
}

size_t OpenMpView::outermost_outlined(const std::vector<FrameRef>& frames, size_t i) const {
  while (i + 1 < frames.size() && is_outlined(frames[i + 1].func)) ++i;
  return i;
}

void OpenMpView::append_user(const std::vector<FrameRef>& frames, size_t from, size_t to,
                             std::vector<FrameRef>* out) const {
  for (size_t i = from; i < to && i < frames.size(); ++i)
    if (!is_runtime(frames[i].func) && !is_outlined(frames[i].func)) out->push_back(frames[i]);
}

ResolvedStack OpenMpView::transform(const ResolvedStack& m, uint32_t state, const ResolvedStack* fork, ViewMode mode) {
  std::vector<ForkLevel> chain;
  if (fork) chain.push_back({fork, false});
  return transform_at(m, state, chain, 0, mode);
}

ResolvedStack OpenMpView::transform(const ResolvedStack& m, uint32_t state, const std::vector<ForkLevel>& chain,
                                    ViewMode mode) {
  if (chain.empty() && state != format::kOmpIdle && !known_forks_.empty()) {
    // No fork stack: the region (or task) of the outlined function on the stack, if known.
    size_t o = 0;
    while (o < m.frames.size() && !is_outlined(m.frames[o].func)) ++o;
    if (o < m.frames.size()) {
      auto it = known_forks_.find(m.frames[outermost_outlined(m.frames, o)].func);
      if (it != known_forks_.end() && !it->second.ambiguous) {
        std::vector<ForkLevel> known;
        for (size_t i = 0; i < it->second.stacks.size(); ++i) known.push_back({&it->second.stacks[i], it->second.task[i]});
        return transform_at(m, state, known, 0, mode);
      }
    }
  }
  return transform_at(m, state, chain, 0, mode);
}

FuncId OpenMpView::leading_outlined(const ResolvedStack& fork, bool task) const {
  const auto& ff = fork.frames;
  size_t i = 0;
  while (i < ff.size() && is_runtime(ff[i].func)) ++i;
  if (i >= ff.size() || !is_outlined(ff[i].func) || (task && i != 0)) return 0;
  const uint32_t entry = ff[i].pc;
  while (i + 1 < ff.size() && ff[i + 1].pc == entry && is_outlined(ff[i + 1].func)) ++i;
  return ff[i].func;
}

void OpenMpView::note_fork(const std::vector<ForkLevel>& chain) {
  if (chain.empty()) return;
  FuncId fn = leading_outlined(*chain[0].stack, chain[0].task);
  if (!fn) return;
  auto [it, fresh] = known_forks_.try_emplace(fn);
  KnownFork& k = it->second;
  if (fresh) {
    for (const ForkLevel& l : chain) k.stacks.push_back(*l.stack), k.task.push_back(l.task);
    return;
  }
  // Another fork of the same function: from the same place (the first program frame's function
  // and line; a nested region's fork stacks differ below it between the master and the outer
  // region's workers)?
  auto site = [this](const ResolvedStack& a) -> const FrameRef* {  // as transform_at finds it
    const auto& ff = a.frames;
    size_t i = 0;
    while (i < ff.size() && is_runtime(ff[i].func)) ++i;
    const uint32_t entry = i < ff.size() ? ff[i].pc : 0;
    while (i < ff.size() && ff[i].pc == entry && is_outlined(ff[i].func)) ++i;
    while (i < ff.size() && is_runtime(ff[i].func)) ++i;
    return i < ff.size() ? &ff[i] : nullptr;
  };
  auto same = [&](const ResolvedStack& a, const ResolvedStack& b) {
    const FrameRef *x = site(a), *y = site(b);
    return x && y ? x->func == y->func && x->line == y->line : x == y;
  };
  // The construct itself decides; of two chains of one construct the longer is kept (a task
  // whose creating task was not found has one level less).
  if (!same(k.stacks[0], *chain[0].stack)) {
    k.ambiguous = true;
  } else if (chain.size() > k.stacks.size()) {
    k.stacks.clear(), k.task.clear();
    for (const ForkLevel& l : chain) k.stacks.push_back(*l.stack), k.task.push_back(l.task);
  }
}

std::vector<FrameRef> OpenMpView::fork_context(const std::vector<ForkLevel>& chain, size_t level, size_t from,
                                               ViewMode mode) {
  std::vector<FrameRef> out;
  const auto& ff = chain[level].stack->frames;
  bool inside = false;  // taken inside an enclosing region: runtime or outlined frames further out
  for (size_t i = from; i < ff.size() && !inside; ++i) inside = is_runtime(ff[i].func) || is_outlined(ff[i].func);
  if (inside && level + 1 < chain.size()) {
    ResolvedStack sub;
    sub.frames.assign(ff.begin() + long(from), ff.end());
    return transform_at(sub, format::kOmpWork, chain, level + 1, mode).frames;
  }
  append_user(ff, from, ff.size(), &out);
  return out;
}

FuncId OpenMpView::task_frame(FuncId outlined, const FrameRef* site, const std::vector<FrameRef>& context,
                              ViewMode mode) {
  std::string creator;
  if (!context.empty()) {
    const FunctionEntry& c = funcs_.at(context.front().func);
    creator = c.short_name.empty() ? c.name : c.short_name;
    auto cut = creator.find(" -- OMP ");  // created in a region's own code: the region's function
    if (cut != std::string::npos) creator.resize(cut);
  } else if (site) {
    const FunctionEntry& c = funcs_.at(site->func);
    creator = c.short_name.empty() ? c.name : c.short_name;
  } else {
    creator = "<unknown>";
  }
  auto dot = creator.find("._omp_fn.");
  if (dot != std::string::npos) creator.resize(dot);
  uint32_t line = site && site->line < resolver_.lines().size() ? resolver_.lines()[site->line].line : 0;
  std::string name = line ? fmt::format("{} -- OMP task from line {}", creator, line)
                          : fmt::format("{} -- OMP task", creator);
  ObjId obj = site ? funcs_.at(site->func).object : kNoObject;
  if (mode == ViewMode::kExpert && outlined) {
    const FunctionEntry& o = funcs_.at(outlined);
    name += fmt::format(" [{}]", o.short_name.empty() ? o.name : o.short_name);
    obj = o.object;
  }
  auto it = named_.find(name);
  if (it != named_.end()) return it->second;
  FunctionEntry e;
  e.name = e.short_name = name;
  e.object = obj;
  if (site) e.source_file = funcs_.at(site->func).source_file;
  FuncId f = funcs_.intern_named(e);
  named_.emplace(name, f);
  return f;
}

ResolvedStack OpenMpView::transform_at(const ResolvedStack& m, uint32_t state, const std::vector<ForkLevel>& chain,
                                       size_t level, ViewMode mode) {
  const ResolvedStack* fork = level < chain.size() ? chain[level].stack : nullptr;
  const bool task = fork && chain[level].task;
  ResolvedStack r;
  std::vector<FrameRef> fr = m.frames;
  if (state != format::kOmpWork && !fr.empty() && !is_runtime(fr.front().func)) {
    size_t b = 0;
    while (b < fr.size() && !is_runtime(fr[b].func) && !is_outlined(fr[b].func)) ++b;
    if (b < fr.size()) fr.erase(fr.begin(), fr.begin() + long(b));
  }
  if (state == format::kOmpIdle) {
    r.frames.push_back({pseudo(state), 0, 0});
  } else {
    size_t o = 0;
    while (o < fr.size() && !is_outlined(fr[o].func)) ++o;
    // The function that names the region or task: the outermost of the outlined frames at o
    // (Clang -g: .omp_outlined._debug__.N inlined into, or at -O0 called by, .omp_outlined..N+1,
    // the function the runtime calls), as for a fork stack's leading entry below.
    const FuncId named_fn = o < fr.size() ? fr[outermost_outlined(fr, o)].func : 0;
    bool leaf_runtime = !fr.empty() && (is_runtime(fr.front().func) || (o == 0 && state != format::kOmpWork));
    if (leaf_runtime && state != format::kOmpWork) r.frames.push_back({pseudo(state), 0, 0});
    // The fork site: the first program frame of the fork stack.
    const FrameRef* site = nullptr;
    size_t fork_from = 0;
    FuncId fork_outlined = 0;  // GOMP: the fork stack starts with the outlined function's entry
    if (fork) {
      const auto& ff = fork->frames;
      while (fork_from < ff.size() && is_runtime(ff[fork_from].func)) ++fork_from;
      // A task's creation stack starts with its function (GOMP); with libomp it starts in the
      // runtime, and an outlined function after that is the creator (a region's own code).
      bool leaf_fn = fork_from < ff.size() && is_outlined(ff[fork_from].func) && (!task || fork_from == 0);
      const uint64_t entry = leaf_fn ? ff[fork_from].pc : 0;
      if (leaf_fn) fork_outlined = ff[fork_from++].func;
      // Its entry may resolve to inline frames first (Clang -g: .omp_outlined._debug__.N inlined
      // into .omp_outlined..N+1, at the same pc): the outermost one names the region.
      while (leaf_fn && fork_from < ff.size() && ff[fork_from].pc == entry && is_outlined(ff[fork_from].func))
        fork_outlined = ff[fork_from++].func;
      while (fork_from < ff.size() && is_runtime(ff[fork_from].func)) ++fork_from;
      if (fork_from < ff.size()) site = &ff[fork_from];
    }
    if (o < fr.size()) {
      append_user(fr, 0, o, &r.frames);
      if (fork) {
        std::vector<FrameRef> ctx = fork_context(chain, level, fork_from, mode);
        // A task's own function is the creation stack's leaf where known (GOMP): a task whose
        // function tail-called the program's code shows the creator's outlined function first.
        // A region is named by the function its fork stack starts with where known (a sample
        // still in a task's function after the task, at the region's barrier, is the region's).
        FuncId rf = task ? task_frame(fork_outlined ? fork_outlined : named_fn, site, ctx, mode)
                         : region(fork_outlined ? fork_outlined : named_fn, site, mode);
        r.frames.push_back({rf, fr[o].pc, fr[o].line});
        r.frames.insert(r.frames.end(), ctx.begin(), ctx.end());
      } else {
        r.frames.push_back({region(named_fn, site, mode), fr[o].pc, fr[o].line});
        append_user(fr, o + 1, fr.size(), &r.frames);
      }
    } else if (fork && site) {
      // In the region but without its outlined function on the stack: a worker at the region's
      // barrier or starting, or an outlined function that tail-called the program's code. The
      // program frames on the leaf side of the runtime's are kept, under the region.
      size_t first_runtime = 0;
      while (first_runtime < fr.size() && !is_runtime(fr[first_runtime].func)) ++first_runtime;
      if (first_runtime < fr.size()) append_user(fr, 0, first_runtime, &r.frames);
      std::vector<FrameRef> ctx = fork_context(chain, level, fork_from, mode);
      FuncId rf = task ? task_frame(fork_outlined, site, ctx, mode)
                       : fork_outlined ? region(fork_outlined, site, mode) : region_at(*site, mode);
      r.frames.push_back({rf, site->pc, site->line});
      r.frames.insert(r.frames.end(), ctx.begin(), ctx.end());
    } else {
      if (leaf_runtime && r.frames.empty()) r.frames.push_back({pseudo(format::kOmpOverhead), 0, 0});
      append_user(fr, 0, fr.size(), &r.frames);
    }
  }
  if (r.frames.empty()) r.frames.push_back({funcs_.unknown(), 0, 0});
  r.funcs.reserve(r.frames.size());
  for (const FrameRef& f : r.frames) r.funcs.push_back(f.func);
  return r;
}

}  // namespace erkit::model::viewmode
