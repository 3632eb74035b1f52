// Metrics per program counter and per source line (er_print pcs/lines, annotated source and
// disassembly), derived from Profile::aggregates(): the leaf frame of each distinct stack
// receives the exclusive value, every distinct PC / line of the stack the inclusive value
// once (recursion is counted once, as for functions).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "model/profile.h"

namespace erkit::model {

using Values = std::array<int64_t, kMetricCount>;

// A PC as the views show it. Return addresses of callers are kept apart from leaf PCs
// (`caller`): the views attribute them to the call instruction before them.
struct PcRow {
  uint32_t pc = 0;        // index into StackResolver::pcs()
  bool caller = false;    // a return address (non-leaf frame)
  uint32_t line = 0;      // index into StackResolver::lines() of the innermost frame at this PC
  FuncId func = 0;        // concrete function (PcEntry::func)
  FuncId inner = 0;       // innermost (possibly inlined) function at this PC
  Values excl{}, incl{};
};

struct LineRow {
  uint32_t line = 0;  // index into StackResolver::lines(); 0 = no line information
  FuncId func = 0;    // for line 0: the function whose PCs have no line
  Values excl{}, incl{};
};

struct PcLineMetrics {
  std::vector<PcRow> pcs;
  std::vector<LineRow> lines;  // one per line index with data, plus one per function for line 0
  std::unordered_map<uint64_t, uint32_t> pc_index;    // (pc << 1 | caller) -> pcs slot
  std::unordered_map<uint32_t, uint32_t> line_index;  // line index -> lines slot (line != 0)
};

// keep(concrete function of a PC): null keeps all. Used by `source function'file'`, which
// shows only the named function's metrics.
PcLineMetrics compute_pc_line_metrics(const Profile& p, const std::function<bool(FuncId)>& keep = nullptr);

}  // namespace erkit::model
