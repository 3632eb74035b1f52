// Heap reports (leaks, allocs, heap statistics) and the stack lines shared by every trace report.
#include "views/trace_views.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "model/heap_leaks.h"
#include "views/trace_format.h"

namespace erkit::views {

std::vector<std::string> stack_frame_lines(const model::Profile& p, const model::ResolvedStack& s,
                                           const NameOptions& names) {
  const auto& ft = p.functions();
  const auto& pcs = p.resolver().pcs();
  std::vector<std::string> out;
  for (const auto& fr : s.frames) {
    std::string name = function_display_name(ft, fr.func, names);
    const auto& fe = ft.at(fr.func);
    uint64_t vaddr = fr.pc < pcs.size() ? pcs[fr.pc].vaddr : 0;
    if (!fe.pseudo && fe.addr != 0 && vaddr >= fe.addr)
      out.push_back(fmt::format("{} + 0x{:08x}", name, vaddr - fe.addr));
    else
      out.push_back(name);
  }
  return out;
}

std::vector<StackGroup> group_by_stack(model::Profile& p, const NameOptions& names,
                                       const std::vector<uint32_t>& metrics) {
  std::map<std::vector<std::string>, size_t> index;
  std::vector<StackGroup> groups;
  for (const auto& a : p.aggregates()) {
    bool any = false;
    for (uint32_t m : metrics) any |= a.values[m] != 0;
    if (!any) continue;
    auto lines = stack_frame_lines(p, *a.stack, names);
    auto [it, inserted] = index.try_emplace(lines, groups.size());
    if (inserted) groups.push_back({std::move(lines), {}});
    auto& g = groups[it->second];
    g.values.resize(metrics.size());
    for (size_t i = 0; i < metrics.size(); ++i) g.values[i] += a.values[metrics[i]];
  }
  return groups;
}

namespace {

// Leaks and allocs share one layout; they differ in the metrics and the words.
std::string render_heap_list(model::Profile& p, size_t limit, const NameOptions& names, uint32_t count_metric,
                             uint32_t bytes_metric, const char* plural, const char* singular,
                             const char* bytes_words) {
  auto groups = group_by_stack(p, names, {count_metric, bytes_metric});
  std::stable_sort(groups.begin(), groups.end(), [](const StackGroup& a, const StackGroup& b) {
    if (a.values[1] != b.values[1]) return a.values[1] > b.values[1];
    return a.values[0] > b.values[0];
  });
  int64_t instances = 0, bytes = 0;
  for (const auto& g : groups) instances += g.values[0], bytes += g.values[1];
  std::string out = fmt::format("Summary Results: Distinct {} = {}, Total Instances = {}, Total {} = {}\n\n",
                                plural, groups.size(), instances, bytes_words, bytes);
  size_t n = limit ? std::min(limit, groups.size()) : groups.size();
  for (size_t i = 0; i < n; ++i) {
    const auto& g = groups[i];
    out += fmt::format("{} #{}, Instances = {}, {} = {}\n", singular, i + 1, g.values[0], bytes_words, g.values[1]);
    for (const auto& line : g.frames) out += "    " + line + "\n";
    out += "\n";
  }
  return out;
}

}  // namespace

std::string render_leaks(model::Profile& p, size_t limit, const NameOptions& names) {
  return render_heap_list(p, limit, names, model::kLeak, model::kBleak, "Leaks", "Leak", "Bytes Leaked");
}

std::string render_allocs(model::Profile& p, size_t limit, const NameOptions& names) {
  return render_heap_list(p, limit, names, model::kAlloc, model::kBalloc, "Allocations", "Allocation",
                          "Bytes Allocated");
}

std::string render_heap_stat(model::Profile& p) {
  SizeHistogram allocs, leaks;
  std::string peaks;
  uint32_t x = 0;
  for (const auto& e : p.experiments()) {
    ++x;
    auto leaked = model::leaked_allocations(e.heap);
    // Live bytes over time: allocations add at their time, releases subtract the block's size.
    std::unordered_map<uint64_t, uint64_t> live;
    int64_t cur = 0, peak = 0;
    uint64_t peak_t = 0;
    for (size_t i = 0; i < e.heap.size(); ++i) {
      const auto& h = e.heap[i];
      auto release = [&](uint64_t addr) {
        auto it = live.find(addr);
        if (it == live.end()) return;
        cur -= int64_t(it->second);
        live.erase(it);
      };
      if (h.op == format::kHeapFree || h.op == format::kHeapMunmap) release(h.address);
      if (h.op == format::kHeapRealloc && h.old_address) release(h.old_address);
      if (!model::heap_allocates(h)) continue;
      allocs.add(h.size);
      if (leaked[i]) leaks.add(h.size);
      live[h.address] = h.size;
      cur += int64_t(h.size);
      if (cur > peak) peak = cur, peak_t = h.tstamp_ns;
    }
    if (!e.heap.empty())
      peaks += fmt::format("  Experiment {} (pid {}): peak {} bytes live at {:.3f} s\n", x, e.log.pid, peak,
                           double(peak_t) / 1e9);
  }
  std::string out = "Peak Heap Usage\n" + std::string(55, '-') + "\n";
  out += peaks.empty() ? "  no heap data\n" : peaks;
  out += "\nMemory Allocations Statistics\n" + allocs.render("Allocation Size Range", "Allocations");
  out += fmt::format("{:<34}{}\n{:<34}{}\n{:<34}{}\n{:<34}{}\n\n", "Smallest allocation bytes", allocs.min(),
                     "Largest allocation bytes", allocs.max, "Total allocations", allocs.count, "Total bytes",
                     allocs.bytes);
  out += "Memory Leaks Statistics\n" + leaks.render("Leak Size Range", "Leaks");
  out += fmt::format("{:<34}{}\n{:<34}{}\n{:<34}{}\n{:<34}{}\n\n", "Smallest leaked bytes", leaks.min(),
                     "Largest leaked bytes", leaks.max, "Total leaks", leaks.count, "Total bytes", leaks.bytes);
  return out;
}

}  // namespace erkit::views
