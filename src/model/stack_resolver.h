// Turns recorded stacks (absolute PCs, leaf first) into logical frames: function, PC and
// source line, with inlined functions expanded into their own frames. Each distinct PC is
// symbolised once per experiment; each distinct stack is resolved once.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/function_table.h"
#include "model/viewmode/java_info.h"
#include "reader/experiment.h"
#include "symbols/symbols.h"

namespace erkit::model {

struct PcEntry {
  ObjId object = kNoObject;
  uint64_t vaddr = 0;   // ELF virtual address in the object (the PC itself, not pc-1)
  FuncId func = 0;      // concrete (outermost) function at this PC
};

struct LineEntry {
  uint32_t file = 0;    // index into file names (0 = unknown)
  uint32_t line = 0;
};

struct FrameRef {
  FuncId func;
  uint32_t pc;    // index into pcs()
  uint32_t line;  // index into lines()
  bool inlined = false;  // code inlined into the next frame (folded unless inline_frames is on)
};

struct ResolvedStack {
  std::vector<FrameRef> frames;  // leaf first; the root (<Total>) is implicit
  std::vector<uint32_t> funcs;   // frames[i].func, for filter expressions (STACK, LEAF)
};

class StackResolver {
 public:
  StackResolver(FunctionTable& funcs, symbols::SymbolCache& cache);
  // Resolves stack `id` of experiment `exp` (index into the caller's experiment list).
  const ResolvedStack& resolve(uint32_t exp, const reader::Experiment& e, uint64_t stack_id, uint64_t tstamp_ns);
  // A stack resolve() has already seen (every event's stack once the experiment is added to a
  // Profile), or nullptr. For per-event exports that walk events after aggregation.
  const ResolvedStack* find(uint32_t exp, uint64_t stack_id) const;

  // Java and OpenMP presentation (seed-spec §6.9): stacks resolved from here on follow `m`
  // (stacks already resolved are forgotten). Non-Java stacks are the same in every mode.
  void set_view_mode(ViewMode m);
  ViewMode view_mode() const { return mode_; }
  // What the Java agent recorded for experiment `exp` (read once; present = false if nothing).
  const JavaInfo& java_info(uint32_t exp, const reader::Experiment& e);

  const std::vector<PcEntry>& pcs() const { return pcs_; }
  const std::vector<LineEntry>& lines() const { return lines_; }
  const std::vector<std::string>& files() const { return files_; }
  // Problems met while symbolising (objects that could not be read), each reported once.
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  struct PcResult {
    std::vector<FrameRef> frames;  // innermost first
  };
  const PcResult& resolve_pc(uint32_t exp, const reader::Experiment& e, uint64_t pc, bool leaf, uint64_t t);
  PcResult symbolise(const reader::LoadObject& lo, uint64_t pc, bool leaf);
  PcResult dynamic_function(const reader::DynamicFunction& df, uint64_t pc, bool java);
  uint32_t intern_pc(ObjId obj, uint64_t vaddr, FuncId func);
  uint32_t intern_line(const std::string& file, uint32_t line);
  FuncId static_function(ObjId obj, const symbols::ObjectSymbols* syms, uint64_t vaddr);
  // The function `name` of the first load object (not the collector) that defines it, or
  // kNoRealFunction.
  static constexpr FuncId kNoRealFunction = UINT32_MAX;
  FuncId real_function(const reader::Experiment& e, const std::string& name);

  // Java stacks (viewmode/java_stack.cc).
  enum class CodeKind { kJvm, kGenerated, kNative };
  CodeKind code_kind(const FrameRef& f) const;
  FuncId java_pseudo(const char* name);
  bool java_experiment(uint32_t exp, const reader::Experiment& e) { return java_info(exp, e).present; }
  FrameRef java_frame(const JavaInfo& info, uint64_t word, bool compiled);
  void java_stack(uint32_t exp, const reader::Experiment& e, std::vector<FrameRef> machine, const uint64_t* words,
                  size_t n, ResolvedStack& rs);

  FunctionTable& funcs_;
  ViewMode mode_ = ViewMode::kUser;
  std::unordered_map<uint32_t, JavaInfo> java_;             // by experiment index
  std::unordered_map<std::string, uint64_t> java_addr_;     // Java method -> its pseudo-address range
  symbols::SymbolCache& cache_;
  std::unordered_map<uint64_t, ResolvedStack> stacks_;   // key: exp << 56 ^ id
  std::unordered_map<uint64_t, PcResult> pc_cache_;      // key: (exp, pc, leaf)
  std::vector<PcEntry> pcs_;
  std::unordered_map<uint64_t, uint32_t> pc_index_;      // (obj << 48) ^ vaddr
  std::vector<LineEntry> lines_;
  std::unordered_map<uint64_t, uint32_t> line_index_;
  std::vector<std::string> files_;
  std::unordered_map<std::string, uint32_t> file_index_;
  std::vector<std::string> problems_;
  std::unordered_map<std::string, bool> reported_;
  std::unordered_map<std::string, FuncId> real_functions_;  // collector wrapper name -> real one
};

}  // namespace erkit::model
