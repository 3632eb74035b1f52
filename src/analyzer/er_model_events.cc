// The per-thread timeline's events (docs/analyzer.md, "Timeline"): every recorded event of
// every data kind, per experiment and thread, with its call stack. er_print has no per-event
// report; the events come from the same model the reports are computed from (the session's
// Profile, model::for_each_event), and per thread they add up to thread_list's Events column.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "analyzer/er_model.h"
#include "erprint/session.h"
#include "model/event_source.h"
#include "model/metric_defs.h"
#include "views/function_views.h"

namespace erkit::analyzer {

namespace {

constexpr const char* kKinds[] = {"clock", "heap", "sync", "io", "hwc", "mpi", "kernel", "kthread", "other"};
constexpr size_t kKindCount = sizeof kKinds / sizeof kKinds[0];

// The data kind of an event (index into kKinds): the source of its first metric with a value.
size_t event_kind(const model::EventRecord& ev) {
  for (uint32_t m = 0; m < model::kMetricCount; ++m) {
    if (ev.values[m] == 0) continue;
    switch (model::metric_def(m).source) {
      case model::MetricSource::Clock:
      case model::MetricSource::Omp: return 0;
      case model::MetricSource::Heap: return 1;
      case model::MetricSource::Sync: return 2;
      case model::MetricSource::Io: return 3;
      case model::MetricSource::Hwc: return 4;
      case model::MetricSource::Mpi: return 5;
      case model::MetricSource::Kernel: return 6;
      case model::MetricSource::KernelThread: return 7;
    }
  }
  return kKindCount - 1;
}

void append_json_string(std::string& o, std::string_view s) {
  o += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (static_cast<unsigned char>(c) < 0x20) o += fmt::format("\\u{:04x}", int(c));
    else o += c;
  }
  o += '"';
}

struct ThreadOut {
  uint32_t exp = 0, number = 0, lwp = 0;
  uint64_t events = 0;
  uint64_t per_kind[kKindCount] = {};
  // Per kind, per bucket: the first event there (time, stack index + 1; 0 = none). Allocated
  // at the kind's first event in the window: one pass, O(1) per event.
  std::vector<std::pair<uint64_t, uint32_t>> shown[kKindCount];
};

}  // namespace

std::string ErModel::timeline_events(uint64_t t0, uint64_t t1, uint32_t buckets, bool by_cpu) {
  auto lock = page_lock();
  if (!session_) return "{}";
  model::Profile& p = session_->profile();
  const auto& exps = p.experiments();
  if (buckets == 0) buckets = 1;
  uint64_t end = 0;
  std::vector<std::vector<ThreadOut>> threads(exps.size());
  for (uint32_t x = 0; x < exps.size(); ++x)
    for (const auto& t : p.threads(x)) {
      if (!by_cpu) {
        ThreadOut o;
        o.exp = x + 1;
        o.number = t.number;
        o.lwp = t.tid;
        threads[x].push_back(std::move(o));
      }
      end = std::max(end, t.last_ns);
    }
  // Per CPU (by_cpu): one row per CPU an event of the experiment ran on (cpu_list's CPUs),
  // made at its first event: row index + 1 per CPU number, 0 = none yet.
  std::vector<std::vector<uint32_t>> cpu_row(exps.size());
  bool has_cpu = false;
  if (t1 <= t0) t0 = 0, t1 = std::max<uint64_t>(end, 1);
  const double per_bucket = double(t1 - t0) / buckets;
  // Stacks, each once: (experiment, stack id) -> index into the output's stack table.
  std::map<std::pair<uint32_t, uint64_t>, uint32_t> stack_index;
  std::vector<const model::ResolvedStack*> stacks;
  for (uint32_t x = 0; x < exps.size(); ++x) {
    model::for_each_event(exps[x], [&](const model::EventRecord& ev) {
      if (ev.cpu >= 0) has_cpu = true;
      uint32_t n = 0;
      if (!by_cpu) {
        n = p.thread_number(x, ev.tid);
      } else if (ev.cpu >= 0 && ev.cpu < (1 << 20)) {
        auto& rows = cpu_row[x];
        if (rows.size() <= size_t(ev.cpu)) rows.resize(size_t(ev.cpu) + 1, 0);
        if (!rows[size_t(ev.cpu)]) {
          ThreadOut o;
          o.exp = x + 1;
          o.number = uint32_t(ev.cpu);
          threads[x].push_back(std::move(o));
          rows[size_t(ev.cpu)] = uint32_t(threads[x].size());
        }
        n = rows[size_t(ev.cpu)];
      }
      if (n == 0 || n > threads[x].size()) return;
      ThreadOut& t = threads[x][n - 1];
      t.events++;
      const size_t kind = event_kind(ev);
      t.per_kind[kind]++;
      if (ev.tstamp_ns < t0 || ev.tstamp_ns >= t1) return;
      const uint64_t b = std::min<uint64_t>(uint64_t(double(ev.tstamp_ns - t0) / per_bucket), buckets - 1);
      auto& slot = t.shown[kind];
      if (slot.empty()) slot.resize(buckets);
      if (slot[b].second) return;
      const model::ResolvedStack* rs = p.resolver().find(x, ev.stack_id);
      if (!rs) return;
      auto [it, inserted] = stack_index.try_emplace({x, ev.stack_id}, uint32_t(stacks.size()));
      if (inserted) stacks.push_back(rs);
      slot[b] = {ev.tstamp_ns, it->second + 1};
    });
  }
  // Functions named once, by id.
  std::vector<model::FuncId> funcs;
  for (const auto* rs : stacks)
    for (const auto& f : rs->frames) funcs.push_back(f.func);
  std::sort(funcs.begin(), funcs.end());
  funcs.erase(std::unique(funcs.begin(), funcs.end()), funcs.end());

  // Per CPU: the rows in CPU order, as cpu_list lists them.
  for (auto& per_exp : threads)
    if (by_cpu)
      std::sort(per_exp.begin(), per_exp.end(), [](const ThreadOut& a, const ThreadOut& b) { return a.number < b.number; });
  std::string o = fmt::format("{{\"t0\":{},\"t1\":{},\"end_ns\":{},\"buckets\":{},\"by\":\"{}\",\"has_cpu\":{},\"threads\":[",
                              t0, t1, end, buckets, by_cpu ? "cpu" : "thread", has_cpu ? "true" : "false");
  bool first = true;
  for (const auto& per_exp : threads)
    for (const auto& t : per_exp) {
      if (!first) o += ',';
      first = false;
      if (by_cpu)
        o += fmt::format("{{\"exp\":{},\"cpu\":{},\"events\":{},\"kinds\":{{", t.exp, t.number, t.events);
      else
        o += fmt::format("{{\"exp\":{},\"thread\":{},\"lwp\":{},\"events\":{},\"kinds\":{{", t.exp, t.number, t.lwp,
                         t.events);
      bool fk = true;
      for (size_t kind = 0; kind < kKindCount; ++kind) {
        if (!t.per_kind[kind]) continue;
        if (!fk) o += ',';
        fk = false;
        append_json_string(o, kKinds[kind]);
        o += fmt::format(":{{\"count\":{},\"shown\":[", t.per_kind[kind]);
        bool fe = true;
        for (const auto& [time, stack] : t.shown[kind]) {
          if (!stack) continue;
          if (!fe) o += ',';
          fe = false;
          o += fmt::format("[{},{}]", time, stack - 1);
        }
        o += "]}";
      }
      o += "}}";
    }
  o += "],\"stacks\":[";
  for (size_t s = 0; s < stacks.size(); ++s) {
    if (s) o += ',';
    o += '[';
    for (size_t k = 0; k < stacks[s]->frames.size(); ++k) o += fmt::format("{}{}", k ? "," : "", stacks[s]->frames[k].func);
    o += ']';
  }
  o += "],\"functions\":{";
  const auto& ft = p.functions();
  for (size_t k = 0; k < funcs.size(); ++k) {
    if (k) o += ',';
    o += fmt::format("\"{}\":", funcs[k]);
    append_json_string(o, views::function_display_name(ft, funcs[k], session_->names));
  }
  o += "}}";
  return o;
}

}  // namespace erkit::analyzer
