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
  if (k == 3 && (n.find("._omp_fn.") != std::string::npos || starts_with(n, ".omp_outlined.") ||
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

void OpenMpView::append_user(const std::vector<FrameRef>& frames, size_t from, size_t to,
                             std::vector<FrameRef>* out) const {
  for (size_t i = from; i < to && i < frames.size(); ++i)
    if (!is_runtime(frames[i].func) && !is_outlined(frames[i].func)) out->push_back(frames[i]);
}

ResolvedStack OpenMpView::transform(const ResolvedStack& m, uint32_t state, const ResolvedStack* fork, ViewMode mode) {
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
    bool leaf_runtime = !fr.empty() && (is_runtime(fr.front().func) || (o == 0 && state != format::kOmpWork));
    if (leaf_runtime && state != format::kOmpWork) r.frames.push_back({pseudo(state), 0, 0});
    // The fork site: the first program frame of the fork stack.
    const FrameRef* site = nullptr;
    size_t fork_from = 0;
    FuncId fork_outlined = 0;  // GOMP: the fork stack starts with the outlined function's entry
    if (fork) {
      const auto& ff = fork->frames;
      while (fork_from < ff.size() && is_runtime(ff[fork_from].func)) ++fork_from;
      if (fork_from < ff.size() && is_outlined(ff[fork_from].func)) fork_outlined = ff[fork_from++].func;
      while (fork_from < ff.size() && is_runtime(ff[fork_from].func)) ++fork_from;
      if (fork_from < ff.size()) site = &ff[fork_from];
    }
    if (o < fr.size()) {
      append_user(fr, 0, o, &r.frames);
      r.frames.push_back({region(fr[o].func, site, mode), fr[o].pc, fr[o].line});
      if (fork) append_user(fork->frames, fork_from, fork->frames.size(), &r.frames);
      else append_user(fr, o + 1, fr.size(), &r.frames);
    } else if (fork && site) {
      // In the region but without its outlined function on the stack: a worker at the region's
      // barrier or starting, or an outlined function that tail-called the program's code. The
      // program frames on the leaf side of the runtime's are kept, under the region.
      size_t first_runtime = 0;
      while (first_runtime < fr.size() && !is_runtime(fr[first_runtime].func)) ++first_runtime;
      if (first_runtime < fr.size()) append_user(fr, 0, first_runtime, &r.frames);
      FuncId rf = fork_outlined ? region(fork_outlined, site, mode) : region_at(*site, mode);
      r.frames.push_back({rf, site->pc, site->line});
      append_user(fork->frames, fork_from, fork->frames.size(), &r.frames);
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
