// Java stacks in the three view modes (seed-spec §6.9; docs/java.md). A stack of a JVM recorded
// with Java profiling is its machine frames, kJavaMarkerPc, then Java frame words or a status
// word (format/experiment_format.h). This turns it into the frames of the current view mode:
//   user:    Java methods by name (interpreted and compiled merged), the native code a native
//            method runs above it; <JVM-System> for the JVM's own threads (GC, compiler);
//            <no Java callstack recorded> where the JVM could not walk a Java thread's stack.
//   expert:  as user, but the leaf method's compiled instance apart (<JAVA_COMPILED_METHODS>),
//            and the machine frames while the JVM's own code runs; machine stacks for the JVM's
//            threads and where no Java stack was taken.
//   machine: the machine stack alone (compiled methods and generated code by the names the
//            agent gave them as dynamic functions).
#include <fmt/format.h>

#include "format/experiment_format.h"
#include "model/stack_resolver.h"

namespace erkit::model {
namespace {

constexpr const char* kJavaClassesObject = "<JAVA_CLASSES>";
constexpr const char* kJavaCompiledObject = "<JAVA_COMPILED_METHODS>";

}  // namespace

void StackResolver::set_view_mode(ViewMode m) {
  if (m == mode_) return;
  mode_ = m;
  stacks_.clear();
}

FuncId StackResolver::java_pseudo(const char* name) {
  FunctionEntry fe;
  fe.name = fe.short_name = name;
  fe.pseudo = true;
  return funcs_.intern_named(std::move(fe));
}

StackResolver::CodeKind StackResolver::code_kind(const FrameRef& f) const {
  if (f.func == funcs_.unknown() || f.func == funcs_.truncated()) return CodeKind::kGenerated;
  const FunctionEntry& fe = funcs_.at(f.func);
  if (fe.object == kNoObject) return CodeKind::kGenerated;
  const std::string& obj = funcs_.object(fe.object).name;
  if (obj == "libjvm.so") return CodeKind::kJvm;
  if (!obj.empty() && obj[0] == '<') return CodeKind::kGenerated;  // <dynamic functions>, JIT maps
  return CodeKind::kNative;
}

const JavaInfo& StackResolver::java_info(uint32_t exp, const reader::Experiment& e) {
  auto it = java_.find(exp);
  if (it != java_.end()) return it->second;
  JavaInfo info = load_java_info(e.path);
  if (info.bad_lines)
    problems_.push_back(fmt::format("{}: {} unreadable lines in the Java method table", e.path, info.bad_lines));
  if (info.present && info.version > format::kJavaFileVersion)
    problems_.push_back(fmt::format("{}: Java method table of version {} (this erkit reads {}): records it does not "
                                    "know are skipped", e.path, info.version, format::kJavaFileVersion));
  return java_.emplace(exp, std::move(info)).first->second;
}

FrameRef StackResolver::java_frame(const JavaInfo& info, uint64_t word, bool compiled) {
  uint64_t id = word & 0xffffffffffffull;
  uint32_t bci = uint32_t(word >> 48);
  ObjId obj = funcs_.intern_object(compiled ? kJavaCompiledObject : kJavaClassesObject, "");
  auto it = info.methods.find(id);
  FunctionEntry fe;
  fe.object = obj;
  std::string source;
  uint32_t line = 0;
  if (it != info.methods.end()) {
    fe.name = it->second.name;
    size_t paren = fe.name.find('(');
    fe.short_name = fe.name.substr(0, paren);
    source = fe.source_file = it->second.source;
    if (bci != format::kJavaNativeBci) line = it->second.line_at(bci);
  } else {
    fe.name = fe.short_name = fmt::format("<Java method {:#x}>", id);
  }
  // Each method gets its own range of pseudo-addresses, so that (method, bci) is a PC of its own.
  auto [ait, fresh] = java_addr_.try_emplace(fe.name, uint64_t(java_addr_.size() + 1) << 20);
  fe.addr = ait->second;
  fe.size = 1u << 16;
  FuncId f = funcs_.intern_named(std::move(fe));
  // Offsets from the function's start are bytecode indices (the start may be a compiled
  // instance's address when machine mode named the method first).
  uint64_t pc = funcs_.at(f).addr + (bci == format::kJavaNativeBci ? 0 : bci);
  return FrameRef{f, intern_pc(obj, pc, f), source.empty() || !line ? 0u : intern_line(source, line)};
}

void StackResolver::java_stack(uint32_t exp, const reader::Experiment& e, std::vector<FrameRef> machine,
                               const uint64_t* words, size_t n, ResolvedStack& rs) {
  if (mode_ == ViewMode::kMachine) {
    rs.frames = std::move(machine);
    return;
  }
  // n == 0: a stack without a Java part, taken before the agent attached (the JVM starting).
  bool status = n == 1 && words[0] < format::kJavaNoStackEnd;
  if (n == 0 || (status && words[0] == format::kJavaNotJavaThread)) {
    if (mode_ == ViewMode::kExpert && !machine.empty()) rs.frames = std::move(machine);
    else rs.frames.push_back({java_pseudo("<JVM-System>"), 0, 0});
    return;
  }
  if (status) {
    if (mode_ == ViewMode::kExpert) rs.frames = std::move(machine);
    rs.frames.push_back({java_pseudo("<no Java callstack recorded>"), 0, 0});
    return;
  }
  const JavaInfo& info = java_info(exp, e);
  bool leaf_native = (words[0] >> 48) == format::kJavaNativeBci;
  size_t i = 0;
  if (mode_ == ViewMode::kUser) {
    // The native code a native method runs (JNI), without the JVM's frames it may call.
    if (leaf_native) {
      while (i < machine.size() && code_kind(machine[i]) == CodeKind::kJvm) ++i;
      for (; i < machine.size() && code_kind(machine[i]) == CodeKind::kNative; ++i) rs.frames.push_back(machine[i]);
    }
  } else {
    // Expert: the machine frames down to the first generated code (the Java method's own).
    for (; i < machine.size() && code_kind(machine[i]) != CodeKind::kGenerated; ++i) rs.frames.push_back(machine[i]);
  }
  bool leaf_compiled = false;
  if (mode_ == ViewMode::kExpert && i < machine.size() && !leaf_native) {
    auto it = info.methods.find(words[0] & 0xffffffffffffull);
    leaf_compiled = it != info.methods.end() && machine[i].func != funcs_.unknown() &&
                    funcs_.at(machine[i].func).name == it->second.name;
  }
  for (size_t k = 0; k < n; ++k) {
    if (words[k] == format::kTruncatedMarkerPc) {
      rs.frames.push_back({funcs_.truncated(), 0, 0});
      continue;
    }
    rs.frames.push_back(java_frame(info, words[k], k == 0 && leaf_compiled));
  }
}

}  // namespace erkit::model
