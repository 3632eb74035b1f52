// Heap reports (leaks, allocs, heap statistics) and the stack lines shared by every trace report.
#include "views/trace_views.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "model/heap_leaks.h"
#include "model/java_alloc_estimate.h"
#include "model/trace_summaries.h"
#include "views/trace_format.h"

namespace erkit::views {

std::string StackFrame::text() const {
  return has_offset ? fmt::format("{} + 0x{:08x}", function, offset) : function;
}

std::vector<StackFrame> stack_frames(const model::Profile& p, const model::ResolvedStack& s, const NameOptions& names) {
  const auto& ft = p.functions();
  const auto& pcs = p.resolver().pcs();
  std::vector<StackFrame> out;
  for (const auto& fr : s.frames) {
    StackFrame f;
    f.function = function_display_name(ft, fr.func, names);
    const auto& fe = ft.at(fr.func);
    uint64_t vaddr = fr.pc < pcs.size() ? pcs[fr.pc].vaddr : 0;
    if (!fe.pseudo && fe.addr != 0 && vaddr >= fe.addr) f.has_offset = true, f.offset = vaddr - fe.addr;
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<StackGroup> group_by_stack(const model::Profile& p, const NameOptions& names,
                                       const std::vector<uint32_t>& metrics) {
  std::map<std::vector<std::string>, size_t> index;
  std::vector<StackGroup> groups;
  for (const auto& a : p.aggregates()) {
    bool any = false;
    for (uint32_t m : metrics) any |= a.values[m] != 0;
    if (!any) continue;
    auto frames = stack_frames(p, *a.stack, names);
    std::vector<std::string> key;
    for (const auto& f : frames) key.push_back(f.text());
    auto [it, inserted] = index.try_emplace(std::move(key), groups.size());
    if (inserted) groups.push_back({std::move(frames), {}});
    auto& g = groups[it->second];
    g.values.resize(metrics.size());
    for (size_t i = 0; i < metrics.size(); ++i) g.values[i] += a.values[metrics[i]];
  }
  return groups;
}

namespace {

// Leaks and allocs: stacks with their count and bytes, most bytes first.
struct HeapList {
  std::vector<StackGroup> groups;  // values: count, bytes
  int64_t instances = 0, bytes = 0;
};

HeapList heap_list(const model::Profile& p, const NameOptions& names, uint32_t count_metric, uint32_t bytes_metric) {
  HeapList l;
  l.groups = group_by_stack(p, names, {count_metric, bytes_metric});
  std::stable_sort(l.groups.begin(), l.groups.end(), [](const StackGroup& a, const StackGroup& b) {
    if (a.values[1] != b.values[1]) return a.values[1] > b.values[1];
    return a.values[0] > b.values[0];
  });
  for (const auto& g : l.groups) l.instances += g.values[0], l.bytes += g.values[1];
  return l;
}

// Leaks and allocs share one layout; they differ in the metrics and the words.
std::string render_heap_list(const HeapList& l, size_t limit, const char* plural, const char* singular,
                             const char* bytes_words) {
  std::string out = fmt::format("Summary Results: Distinct {} = {}, Total Instances = {}, Total {} = {}\n\n",
                                plural, l.groups.size(), l.instances, bytes_words, l.bytes);
  size_t n = limit ? std::min(limit, l.groups.size()) : l.groups.size();
  for (size_t i = 0; i < n; ++i) {
    const auto& g = l.groups[i];
    out += fmt::format("{} #{}, Instances = {}, {} = {}\n", singular, i + 1, g.values[0], bytes_words, g.values[1]);
    for (const auto& f : g.frames) out += "    " + f.text() + "\n";
    out += "\n";
  }
  return out;
}

json::Value heap_list_json(const HeapList& l, size_t limit) {
  json::Value entries = json::Value::array();
  size_t n = limit ? std::min(limit, l.groups.size()) : l.groups.size();
  for (size_t i = 0; i < n; ++i) {
    const auto& g = l.groups[i];
    entries.push(json::Value::object()
                     .set("rank", i + 1)
                     .set("count", g.values[0])
                     .set("bytes", g.values[1])
                     .set("stack", stack_json(g.frames)));
  }
  return json::Value::object()
      .set("summary", json::Value::object()
                          .set("distinct", l.groups.size())
                          .set("instances", l.instances)
                          .set("bytes", l.bytes))
      .set("entries", std::move(entries));
}

// Heap statistics: size histograms and the peak of live bytes per experiment.
struct HeapStat {
  SizeHistogram allocs, leaks;
  struct Peak {
    uint32_t experiment;
    int64_t pid;
    int64_t bytes;
    uint64_t tstamp_ns;
  };
  std::vector<Peak> peaks;
};

HeapStat heap_stat(const model::Profile& p) {
  HeapStat st;
  // Live bytes over time per experiment: selected allocations add at their time, releases
  // subtract the block's size.
  struct Live {
    std::unordered_map<uint64_t, uint64_t> blocks;
    int64_t cur = 0, peak = 0;
    uint64_t peak_t = 0;
    bool any = false;
  };
  std::vector<Live> live(p.experiments().size());
  model::for_each_heap_record(p, [&](uint32_t x, const format::HeapEvent& h, bool selected, bool leaked) {
    Live& l = live[x];
    l.any = true;
    auto release = [&](uint64_t addr) {
      auto it = l.blocks.find(addr);
      if (it == l.blocks.end()) return;
      l.cur -= int64_t(it->second);
      l.blocks.erase(it);
    };
    if (h.op == format::kHeapFree || h.op == format::kHeapMunmap) release(h.address);
    if (h.op == format::kHeapRealloc && h.old_address) release(h.old_address);
    if (!selected) return;
    model::HeapEstimate est = model::heap_estimate(h);  // a sampled Java object: the objects it stands for
    st.allocs.add(h.size, uint64_t(est.count), est.bytes);
    if (leaked) st.leaks.add(h.size);
    l.blocks[h.address] = h.size;
    l.cur += est.bytes;
    if (l.cur > l.peak) l.peak = l.cur, l.peak_t = h.tstamp_ns;
  });
  for (uint32_t x = 0; x < live.size(); ++x)
    if (live[x].any) st.peaks.push_back({x + 1, p.experiments()[x].log.pid, live[x].peak, live[x].peak_t});
  return st;
}

}  // namespace

std::string render_leaks(const model::Profile& p, size_t limit, const NameOptions& names) {
  return render_heap_list(heap_list(p, names, model::kLeak, model::kBleak), limit, "Leaks", "Leak", "Bytes Leaked");
}

std::string render_allocs(const model::Profile& p, size_t limit, const NameOptions& names) {
  return render_heap_list(heap_list(p, names, model::kAlloc, model::kBalloc), limit, "Allocations", "Allocation",
                          "Bytes Allocated");
}

json::Value leaks_json(const model::Profile& p, size_t limit, const NameOptions& names) {
  return heap_list_json(heap_list(p, names, model::kLeak, model::kBleak), limit);
}

json::Value allocs_json(const model::Profile& p, size_t limit, const NameOptions& names) {
  return heap_list_json(heap_list(p, names, model::kAlloc, model::kBalloc), limit);
}

json::Value heap_stat_json(const model::Profile& p) {
  HeapStat st = heap_stat(p);
  json::Value peaks = json::Value::array();
  for (const auto& k : st.peaks)
    peaks.push(json::Value::object()
                   .set("experiment", k.experiment)
                   .set("pid", k.pid)
                   .set("peak_bytes", k.bytes)
                   .set("peak_ns", k.tstamp_ns));
  return json::Value::object()
      .set("peaks", std::move(peaks))
      .set("allocations", st.allocs.to_json())
      .set("leaks", st.leaks.to_json());
}

std::string render_heap_stat(const model::Profile& p) {
  HeapStat st = heap_stat(p);
  const SizeHistogram& allocs = st.allocs;
  const SizeHistogram& leaks = st.leaks;
  std::string peaks;
  for (const auto& k : st.peaks)
    peaks += fmt::format("  Experiment {} (pid {}): peak {} bytes live at {:.3f} s\n", k.experiment, k.pid, k.bytes,
                         double(k.tstamp_ns) / 1e9);
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
