#include "model/stack_resolver.h"

#include <fmt/format.h>

#include <algorithm>

#include "format/experiment_format.h"
#include "model/hwc_pseudo.h"

namespace erkit::model {
namespace {

// "__libc_start_main@GLIBC_2.2.5" -> "__libc_start_main": the symbol version is how the
// linker bound the name, not part of the function's identity (aliases of one function).
std::string strip_symbol_version(std::string name) {
  size_t at = name.find('@');
  if (at == std::string::npos || at == 0 || name.compare(at, 4, "@plt") == 0) return name;
  return name.substr(0, at);
}

bool is_collector_object(const std::string& path) {
  size_t slash = path.rfind('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return base == "libcollector.so" || base == "libcollector-clock.so";
}

}  // namespace

StackResolver::StackResolver(FunctionTable& funcs, symbols::SymbolCache& cache) : funcs_(funcs), cache_(cache) {
  files_.push_back("");
  lines_.push_back({0, 0});
  pcs_.push_back({kNoObject, 0, funcs_.unknown()});
}

uint32_t StackResolver::intern_pc(ObjId obj, uint64_t vaddr, FuncId func) {
  uint64_t key = (uint64_t(obj) << 48) ^ vaddr;
  auto [it, inserted] = pc_index_.try_emplace(key, uint32_t(pcs_.size()));
  if (inserted) pcs_.push_back({obj, vaddr, func});
  return it->second;
}

uint32_t StackResolver::intern_line(const std::string& file, uint32_t line) {
  if (file.empty() && line == 0) return 0;
  auto [fit, fnew] = file_index_.try_emplace(file, uint32_t(files_.size()));
  if (fnew) files_.push_back(file);
  uint64_t key = (uint64_t(fit->second) << 32) | line;
  auto [it, inserted] = line_index_.try_emplace(key, uint32_t(lines_.size()));
  if (inserted) lines_.push_back({fit->second, line});
  return it->second;
}

FuncId StackResolver::static_function(ObjId obj, const symbols::ObjectSymbols* syms, uint64_t vaddr) {
  // No symbol covers the PC: name the gap it lies in after its start, which for a stripped
  // object is most likely the start of the static function containing it.
  const symbols::SectionInfo* sec = syms ? syms->section_at(vaddr) : nullptr;
  // A PLT slot no relocation names (PLT0, the resolver trampoline; lazy IBT stubs): one
  // `@plt` function per object, as perf names it, never `<static>@0x...`.
  if (sec && (sec->name == ".plt" || sec->name == ".plt.sec" || sec->name == ".plt.got" || sec->name == ".iplt")) {
    FunctionEntry e;
    e.name = e.short_name = "@plt";
    e.object = obj;
    e.addr = sec->addr;
    // By name: a named slot may start where the section does.
    return funcs_.intern_named(std::move(e));
  }
  uint64_t start = vaddr;
  if (const auto* before = syms ? syms->function_before(vaddr) : nullptr) start = before->addr + before->size;
  else if (sec) start = sec->addr;
  // The gap starts no earlier than the PC's section (the symbol before may end in another,
  // e.g. the last PLT slot before .text).
  if (sec && start < sec->addr) start = sec->addr;
  // The .eh_frame FDE around the PC bounds one function of code without symbols (issue 15):
  // a stripped program's main, one and two stay apart.
  uint64_t fde_lo = 0, fde_hi = 0;
  if (syms && syms->fde_range(vaddr, &fde_lo, &fde_hi) && fde_lo >= start) {
    FunctionEntry e;
    e.name = fmt::format("<static>@{:#x} (<{}>)", fde_lo, funcs_.object(obj).name);
    e.short_name = e.name;
    e.object = obj;
    e.addr = fde_lo;
    e.size = fde_hi - fde_lo;
    return funcs_.intern(std::move(e));
  }
  FunctionEntry e;
  e.name = fmt::format("<static>@{:#x} (<{}>)", start, funcs_.object(obj).name);
  e.short_name = e.name;
  e.object = obj;
  e.addr = start;
  return funcs_.intern(std::move(e));
}

StackResolver::PcResult StackResolver::symbolise(const reader::LoadObject& lo, uint64_t pc, bool leaf) {
  PcResult r;
  ObjId obj = funcs_.intern_object(lo.path, lo.build_id, lo.symbol_file());
  uint64_t vaddr = pc - lo.bias;
  // A return address points after the call; look up the call instruction itself.
  uint64_t lookup = leaf || vaddr == 0 ? vaddr : vaddr - 1;
  std::string err;
  // symbol_file(): the archived copy when the recorded object changed or is gone.
  const symbols::ObjectSymbols* syms = cache_.get(lo.symbol_file(), lo.build_id, &err);
  if (!syms && !reported_[lo.path]) {
    reported_[lo.path] = true;
    problems_.push_back(fmt::format("{}: {}", lo.path, err.empty() ? "cannot be read" : err));
  }
  std::vector<symbols::Frame> frames;
  if (syms) frames = syms->lookup(lookup);
  if (frames.empty()) {
    FuncId f = static_function(obj, syms, lookup);
    r.frames.push_back({f, intern_pc(obj, vaddr, f), 0});
    return r;
  }
  const symbols::FunctionInfo* concrete = syms->function_at(lookup);
  for (size_t i = frames.size(); i-- > 0;) {
    const auto& fr = frames[i];
    FunctionEntry e;
    e.name = strip_symbol_version(fr.name);
    e.short_name = strip_symbol_version(fr.short_name.empty() ? fr.name : fr.short_name);
    e.mangled = fr.mangled;
    e.original = fr.original;
    e.object = obj;
    if (!fr.inlined && concrete) {
      e.addr = concrete->addr;
      e.size = concrete->size;
      e.source_file = concrete->source_file;
    }
    // An inlined frame has no address: the file of its line tells same-named static
    // functions of the object apart.
    FuncId f = funcs_.intern(std::move(e), fr.inlined ? fr.loc.file : std::string());
    r.frames.insert(r.frames.begin(), FrameRef{f, 0, intern_line(fr.loc.file, fr.loc.line), fr.inlined});
  }
  uint32_t pci = intern_pc(obj, vaddr, r.frames.back().func);
  for (auto& f : r.frames) f.pc = pci;
  return r;
}

// Code the program generated (collector_func_load) or a JIT named in its perf map: one
// pseudo load object per kind, the function's name as given, its line table if it has one.
StackResolver::PcResult StackResolver::dynamic_function(const reader::DynamicFunction& df, uint64_t pc, bool java) {
  PcResult r;
  // A JVM's compiled methods belong with the methods themselves (viewmode/java_stack.cc).
  const char* kind = df.from_jit_map                      ? "<JIT-compiled code>"
                     : java && !df.name.starts_with('<') ? "<JAVA_CLASSES>"
                                                          : "<dynamic functions>";
  ObjId obj = funcs_.intern_object(kind, "");
  FunctionEntry fe;
  fe.name = df.name;
  fe.short_name = df.name;
  fe.object = obj;
  fe.addr = df.vaddr;
  fe.size = df.size;
  fe.source_file = df.source;
  FuncId f = funcs_.intern_named(std::move(fe));
  uint32_t line = df.line_at(pc - df.vaddr);
  r.frames.push_back({f, intern_pc(obj, pc, f), df.source.empty() || !line ? 0 : intern_line(df.source, line)});
  return r;
}

const StackResolver::PcResult& StackResolver::resolve_pc(uint32_t exp, const reader::Experiment& e, uint64_t pc,
                                                         bool leaf, uint64_t t) {
  uint64_t key = (uint64_t(exp) << 56) ^ (pc << 1) ^ (leaf ? 1 : 0);
  auto it = pc_cache_.find(key);
  if (it != pc_cache_.end()) return it->second;
  PcResult r;
  if (pc == format::kTruncatedMarkerPc) {
    r.frames.push_back({funcs_.truncated(), 0, 0});
  } else if (pc == format::kUnwindFailedPc) {
    r.frames.push_back({funcs_.unknown(), 0, 0});
  } else if (pc == format::kKernelSleepingPc || pc == format::kKernelStalledPc || pc == format::kKernelUserModePc) {
    FunctionEntry fe;  // er_kernel -T: the thread's time off the CPU, or in user mode
    fe.name = fe.short_name = pc == format::kKernelSleepingPc  ? "<SLEEPING>"
                              : pc == format::kKernelStalledPc ? "<STALLED>"
                                                               : "<USER_MODE>";
    fe.pseudo = true;
    r.frames.push_back({funcs_.intern_named(std::move(fe)), 0, 0});
  } else if (const reader::DynamicFunction* df = e.dynamic_at(pc, t)) {
    r = dynamic_function(*df, pc, java_experiment(exp, e));
  } else if (const reader::LoadObject* lo = e.object_at(pc, t)) {
    if (!leaf && is_collector_object(lo->path)) {
      // The collector's own frames (thread trampoline) are not the program's.
    } else if (is_collector_object(lo->path)) {
      // A traced call's event (the wrapper of pthread_mutex_lock, calloc, read): it belongs
      // to the real function the program called, in the object that defines it (issue 15).
      // The wrapper's name is looked up without interning it: an interned wrapper of the same
      // name would make the real function's name ambiguous ("malloc (libc.so.6)").
      const symbols::ObjectSymbols* syms = cache_.get(lo->symbol_file(), lo->build_id);
      const symbols::FunctionInfo* wrapper = syms ? syms->function_at(pc - lo->bias) : nullptr;
      FuncId real = wrapper ? real_function(e, strip_symbol_version(wrapper->name)) : kNoRealFunction;
      if (real != kNoRealFunction) r.frames.push_back({real, 0, 0});
      else r = symbolise(*lo, pc, leaf);
    } else {
      r = symbolise(*lo, pc, leaf);
    }
  } else {
    r.frames.push_back({funcs_.unknown(), 0, 0});
  }
  return pc_cache_.emplace(key, std::move(r)).first->second;
}

FuncId StackResolver::real_function(const reader::Experiment& e, const std::string& name) {
  auto [it, fresh] = real_functions_.try_emplace(name, kNoRealFunction);
  if (!fresh) return it->second;
  // The version a program links against: the unversioned or default (`@@`) name, before a
  // compatibility one (`pthread_cond_wait@GLIBC_2.2.5`, glibc's old_pthread_cond_wait).
  auto rank = [&](const std::string& n) {
    if (strip_symbol_version(n) != name) return 0;
    size_t at = n.find('@');
    return at == std::string::npos || n.compare(at, 2, "@@") == 0 ? 2 : 1;
  };
  for (const auto& lo : e.objects) {
    if (is_collector_object(lo.path)) continue;
    const symbols::ObjectSymbols* syms = cache_.get(lo.symbol_file(), lo.build_id);
    if (!syms) continue;
    const symbols::FunctionInfo* best = nullptr;
    int best_rank = 0;
    for (const auto& f : syms->functions()) {
      if (f.from_dwarf_only || f.is_plt) continue;
      int r = rank(f.name);
      for (const auto& a : f.aliases) r = std::max(r, rank(a));
      if (r > best_rank) best = &f, best_rank = r;
    }
    if (!best) continue;
    FunctionEntry fe;
    fe.name = fe.short_name = name;  // the name the program called
    fe.object = funcs_.intern_object(lo.path, lo.build_id, lo.symbol_file());
    fe.addr = best->addr;
    fe.size = best->size;
    fe.source_file = best->source_file;
    // By name: the program called aligned_alloc, not memalign (one address in glibc).
    return it->second = funcs_.intern_named(std::move(fe));
  }
  return kNoRealFunction;
}

const ResolvedStack& StackResolver::resolve(uint32_t exp, const reader::Experiment& e, uint64_t stack_id,
                                            uint64_t tstamp_ns) {
  uint64_t key = (uint64_t(exp) << 56) ^ stack_id;
  auto it = stacks_.find(key);
  if (it != stacks_.end()) return it->second;
  ResolvedStack rs;
  auto sit = e.stacks.find(stack_id);
  if (const char* pseudo = hwc_pseudo_function(stack_id)) {
    FunctionEntry fe;  // collect -h counts without a stack (model/hwc_pseudo.h)
    fe.name = fe.short_name = pseudo;
    fe.pseudo = true;
    rs.frames.push_back({funcs_.intern_named(std::move(fe)), 0, 0});
  } else if (sit == e.stacks.end() || sit->second.empty()) {
    rs.frames.push_back({funcs_.unknown(), 0, 0});
  } else {
    const auto& pcs = sit->second;
    // A JVM's stack: machine frames, kJavaMarkerPc, Java frames (viewmode/java_stack.cc).
    size_t nmachine = size_t(std::find(pcs.begin(), pcs.end(), format::kJavaMarkerPc) - pcs.begin());
    for (size_t i = 0; i < nmachine; ++i) {
      const PcResult& pr = resolve_pc(exp, e, pcs[i], i == 0, tstamp_ns);
      rs.frames.insert(rs.frames.end(), pr.frames.begin(), pr.frames.end());
    }
    if (nmachine < pcs.size() || (mode_ != ViewMode::kMachine && java_experiment(exp, e))) {
      std::vector<FrameRef> machine = std::move(rs.frames);
      rs.frames.clear();
      bool marked = nmachine < pcs.size();
      java_stack(exp, e, std::move(machine), pcs.data() + nmachine + marked, pcs.size() - nmachine - marked, rs);
    }
    if (rs.frames.empty()) rs.frames.push_back({funcs_.unknown(), 0, 0});
  }
  rs.funcs.reserve(rs.frames.size());
  for (const auto& f : rs.frames) rs.funcs.push_back(f.func);
  return stacks_.emplace(key, std::move(rs)).first->second;
}

const ResolvedStack* StackResolver::find(uint32_t exp, uint64_t stack_id) const {
  auto it = stacks_.find((uint64_t(exp) << 56) ^ stack_id);
  return it == stacks_.end() ? nullptr : &it->second;
}

}  // namespace erkit::model
