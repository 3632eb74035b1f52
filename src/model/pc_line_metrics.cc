#include "model/pc_line_metrics.h"

#include <algorithm>

namespace erkit::model {
namespace {

void add(Values& dst, const int64_t* v) {
  for (uint32_t m = 0; m < kMetricCount; ++m) dst[m] += v[m];
}

}  // namespace

PcLineMetrics compute_pc_line_metrics(const Profile& p, const std::function<bool(FuncId)>& keep) {
  PcLineMetrics out;
  const auto& aggs = p.aggregates();
  const StackResolver& r = p.resolver();
  std::unordered_map<FuncId, uint32_t> no_line;  // function -> lines slot for its line-less PCs
  auto pc_slot = [&](const FrameRef& f, bool caller) -> PcRow& {
    uint64_t key = (uint64_t(f.pc) << 1) | (caller ? 1 : 0);
    auto [it, fresh] = out.pc_index.try_emplace(key, uint32_t(out.pcs.size()));
    if (fresh) {
      PcRow row;
      row.pc = f.pc;
      row.caller = caller;
      row.line = f.line;
      row.func = r.pcs()[f.pc].func;
      row.inner = f.func;
      out.pcs.push_back(row);
    }
    return out.pcs[it->second];
  };
  auto line_slot = [&](const FrameRef& f) -> LineRow& {
    if (f.line == 0) {
      auto [it, fresh] = no_line.try_emplace(f.func, uint32_t(out.lines.size()));
      if (fresh) out.lines.push_back({0, f.func, {}, {}});
      return out.lines[it->second];
    }
    auto [it, fresh] = out.line_index.try_emplace(f.line, uint32_t(out.lines.size()));
    if (fresh) out.lines.push_back({f.line, f.func, {}, {}});
    return out.lines[it->second];
  };
  std::vector<uint64_t> seen_pcs;
  std::vector<uint64_t> seen_lines;
  for (const StackAggregate& a : aggs) {
    const auto& fr = a.stack->frames;
    if (fr.empty()) continue;
    seen_pcs.clear();
    seen_lines.clear();
    // The frames of the leaf PC (the innermost and the inlined calls around it) share its
    // pc index; frames after them belong to callers.
    const uint32_t leaf_pc = fr.front().pc;
    bool in_leaf = true;
    for (size_t k = 0; k < fr.size(); ++k) {
      const FrameRef& f = fr[k];
      if (f.pc != leaf_pc) in_leaf = false;
      if (f.pc == 0 && f.line == 0) continue;  // pseudo frames
      bool kept = !keep || keep(r.pcs()[f.pc].func);
      if (!kept) continue;
      bool first_of_pc = k == 0 || fr[k - 1].pc != f.pc;
      if (first_of_pc) {
        uint64_t key = (uint64_t(f.pc) << 1) | (in_leaf ? 0 : 1);
        if (std::find(seen_pcs.begin(), seen_pcs.end(), key) == seen_pcs.end()) {
          seen_pcs.push_back(key);
          PcRow& row = pc_slot(f, !in_leaf);
          if (k == 0) add(row.excl, a.values);
          add(row.incl, a.values);
        }
      }
      uint64_t lkey = f.line ? f.line : (uint64_t(1) << 32) | f.func;
      if (std::find(seen_lines.begin(), seen_lines.end(), lkey) == seen_lines.end()) {
        seen_lines.push_back(lkey);
        LineRow& lr = line_slot(f);
        if (k == 0) add(lr.excl, a.values);
        add(lr.incl, a.values);
      }
    }
  }
  return out;
}

}  // namespace erkit::model
