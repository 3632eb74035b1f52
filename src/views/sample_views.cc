// sample_list, thread_list, lwp_list, cpu_list, overview and statistics.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "views/experiment_views.h"
#include "views/stack_quality.h"
#include "views/table.h"

namespace erkit::views {

using selection::Target;

namespace {

// Values that exist for a target in experiment x, ascending.
std::vector<int64_t> existing(const model::Profile& p, uint32_t x, Target t) {
  std::vector<int64_t> v;
  switch (t) {
    case Target::Samples: {
      auto n = sample_intervals(p, x).size();
      for (size_t i = 1; i <= n; ++i) v.push_back(int64_t(i));
      break;
    }
    case Target::Threads:
      for (const auto& th : p.threads(x)) v.push_back(th.number);
      break;
    case Target::Lwps:
      for (const auto& th : p.threads(x)) v.push_back(th.tid);
      break;
    case Target::Cpus:
      for (int32_t c : p.cpus(x)) v.push_back(c);
      break;
  }
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<int64_t> selected(const model::Profile& p, const selection::SelectionState& sel, uint32_t x, Target t) {
  std::vector<int64_t> out;
  for (int64_t v : existing(p, x, t))
    if (sel.contains(t, x + 1, v)) out.push_back(v);
  return out;
}

// "1-6", "7-10,15", "none"
std::string ranges(const std::vector<int64_t>& v) {
  if (v.empty()) return "none";
  std::string out;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + (j == i ? fmt::format("{}", v[i]) : fmt::format("{}-{}", v[i], v[j]));
    i = j + 1;
  }
  return out;
}

const char* reason_name(uint32_t r) {
  switch (r) {
    case format::kSampleStart: return "start";
    case format::kSampleEnd: return "end";
    case format::kSamplePeriodic: return "periodic";
    case format::kSampleSignal: return "signal";
    case format::kSampleApi: return "api";
    case format::kSamplePause: return "pause";
    case format::kSampleResume: return "resume";
    case format::kSampleFork: return "fork";
    case format::kSampleExec: return "exec";
  }
  return "other";
}

const char* target_word(Target t) {
  switch (t) {
    case Target::Samples: return "samples";
    case Target::Threads: return "threads";
    case Target::Lwps: return "lwps";
    case Target::Cpus: return "cpus";
  }
  return "";
}

}  // namespace

std::vector<SampleInterval> sample_intervals(const model::Profile& p, uint32_t x) {
  const reader::Experiment& e = p.experiments()[x];
  std::vector<SampleInterval> out;
  int64_t pu = 0, ps = 0, pmin = 0, pmaj = 0, pv = 0, pi = 0, pin = 0, pout = 0, prd = 0, pwr = 0;
  uint64_t t0 = 0;
  for (const auto& s : e.samples) {
    const auto& r = s.rec;
    SampleInterval iv;
    iv.number = uint32_t(out.size() + 1);
    iv.reason = reason_name(r.reason);
    iv.label = std::string(r.label, strnlen(r.label, sizeof r.label));
    iv.start_ns = t0;
    iv.end_ns = r.tstamp_ns;
    iv.has_usage = true;
    iv.utime_ns = r.utime_ns - pu;
    iv.stime_ns = r.stime_ns - ps;
    iv.minflt = r.minflt - pmin;
    iv.majflt = r.majflt - pmaj;
    iv.nvcsw = r.nvcsw - pv;
    iv.nivcsw = r.nivcsw - pi;
    iv.inblock = r.inblock - pin;
    iv.oublock = r.oublock - pout;
    iv.maxrss_kb = r.maxrss_kb;
    iv.rss_kb = r.rss_kb;
    iv.read_bytes = r.read_bytes < 0 ? -1 : r.read_bytes - prd;
    iv.write_bytes = r.write_bytes < 0 ? -1 : r.write_bytes - pwr;
    iv.nthreads = r.nthreads;
    pu = r.utime_ns, ps = r.stime_ns, pmin = r.minflt, pmaj = r.majflt, pv = r.nvcsw, pi = r.nivcsw;
    pin = r.inblock, pout = r.oublock;
    if (r.read_bytes >= 0) prd = r.read_bytes;
    if (r.write_bytes >= 0) pwr = r.write_bytes;
    t0 = r.tstamp_ns;
    out.push_back(iv);
  }
  // Events after the last sample point belong to one more sample, unless that point closed
  // the run (as Profile::sample_at).
  uint64_t last_event = e.clock.empty() ? 0 : e.clock.back().tstamp_ns;
  const bool closed = !e.samples.empty() && e.samples.back().rec.reason == format::kSampleEnd;
  if (out.empty() || (last_event > t0 && !closed)) {
    SampleInterval iv;
    iv.number = uint32_t(out.size() + 1);
    iv.reason = out.empty() ? "whole run" : "end";
    iv.start_ns = t0;
    iv.end_ns = std::max(e.duration_ns(), last_event);
    out.push_back(iv);
  }
  // Clock-profile microstates by interval: sample n covers (start, end].
  for (const auto& c : e.clock) {
    auto it = std::lower_bound(out.begin(), out.end(), c.tstamp_ns,
                               [](const SampleInterval& a, uint64_t t) { return a.end_ns < t; });
    if (it == out.end()) it = std::prev(out.end());
    for (uint32_t m = 0; m < format::kMsCount; ++m) it->microstate_ns[m] += int64_t(c.ns[m]);
  }
  return out;
}

std::string render_selection_list(const model::Profile& p, const selection::SelectionState& sel, Target t) {
  std::vector<std::string> sels;
  size_t w = 9;
  for (uint32_t x = 0; x < p.experiments().size(); ++x) {
    sels.push_back(sel.experiment_selected(x + 1) ? ranges(selected(p, sel, x, t)) : "none");
    w = std::max(w, sels.back().size());
  }
  std::string out = fmt::format("Exp {:<{}} Total\n=== {:=<{}} =====\n", "Sel", w, "", w);
  for (uint32_t x = 0; x < p.experiments().size(); ++x)
    out += fmt::format("{:>3} {:<{}} {:>5}\n", x + 1, sels[x], w, existing(p, x, t).size());
  if (t == Target::Threads || t == Target::Lwps) {
    // A Name column when threads have names (Java threads: the agent's records; docs/java.md).
    bool named = false;
    for (uint32_t x = 0; x < p.experiments().size(); ++x)
      for (const auto& th : p.threads(x)) named |= !th.name.empty();
    out += "\nExp Thread     LWP Sel   Events  First (s)   Last (s)";
    out += named ? " Name\n" : "\n";
    out += "=== ====== ======= === ======== ========== ==========";
    out += named ? " ====\n" : "\n";
    for (uint32_t x = 0; x < p.experiments().size(); ++x)
      for (const auto& th : p.threads(x)) {
        bool on = sel.contains(Target::Threads, x + 1, th.number) && sel.contains(Target::Lwps, x + 1, th.tid);
        out += fmt::format("{:>3} {:>6} {:>7} {:<3} {:>8} {:>10.3f} {:>10.3f}", x + 1, th.number, th.tid,
                           on ? "yes" : "no", th.events, double(th.first_ns) / 1e9, double(th.last_ns) / 1e9);
        out += named && !th.name.empty() ? " " + th.name + "\n" : "\n";
      }
  }
  return out;
}

json::Value selection_list_json(const model::Profile& p, const selection::SelectionState& sel, Target t) {
  json::Value list = json::Value::array();
  for (uint32_t x = 0; x < p.experiments().size(); ++x) {
    json::Value sv = json::Value::array(), all = json::Value::array();
    if (sel.experiment_selected(x + 1))
      for (int64_t v : selected(p, sel, x, t)) sv.push(v);
    for (int64_t v : existing(p, x, t)) all.push(v);
    json::Value item = json::Value::object()
                           .set("experiment", x + 1)
                           .set("selected", std::move(sv))
                           .set("all", std::move(all));
    if (t == Target::Threads || t == Target::Lwps) {
      json::Value ths = json::Value::array();
      for (const auto& th : p.threads(x))
        ths.push(json::Value::object()
                     .set("thread", th.number)
                     .set("lwp", th.tid)
                     .set("events", th.events)
                     .set("first_ns", th.first_ns)
                     .set("last_ns", th.last_ns)
                     .set("name", th.name));
      item.set("threads", std::move(ths));
    }
    list.push(std::move(item));
  }
  return json::Value::object()
      .set("target", target_word(t))
      .set("selection", sel.to_string(t))
      .set("experiments", std::move(list));
}

namespace {

// Microstates with any clock-profile time in the experiments' selected samples.
std::vector<uint32_t> used_states(const std::vector<std::vector<SampleInterval>>& per_exp) {
  std::vector<uint32_t> out;
  for (uint32_t m = 0; m < format::kMsCount; ++m) {
    bool any = false;
    for (const auto& v : per_exp)
      for (const auto& iv : v) any |= iv.microstate_ns[m] != 0;
    if (any) out.push_back(m);
  }
  return out;
}

std::vector<SampleInterval> selected_intervals(const model::Profile& p, const selection::SelectionState& sel,
                                               uint32_t x) {
  std::vector<SampleInterval> out;
  if (!sel.experiment_selected(x + 1)) return out;
  for (auto& iv : sample_intervals(p, x))
    if (sel.contains(Target::Samples, x + 1, iv.number)) out.push_back(std::move(iv));
  return out;
}

std::string secs(int64_t ns) { return ns == 0 ? "0." : fmt::format("{:.3f}", double(ns) / 1e9); }

}  // namespace

std::string render_overview(const model::Profile& p, const selection::SelectionState& sel,
                            const std::vector<uint32_t>& exps) {
  std::vector<std::vector<SampleInterval>> per;
  for (uint32_t x : exps) per.push_back(selected_intervals(p, sel, x));
  auto states = used_states(per);
  std::string out;
  for (size_t k = 0; k < exps.size(); ++k) {
    if (k) out += "\n";
    const auto& e = p.experiments()[exps[k]];
    out += fmt::format("Experiment {}: {}\n", exps[k] + 1, e.path);
    std::string head = fmt::format("{:>6}  {:<9} {:>9} {:>9}", "Sample", "Reason", "Start (s)", "End (s)");
    std::string rule = fmt::format("{:=>6}  {:=<9} {:=>9} {:=>9}", "", "", "", "");
    for (uint32_t m : states) {
      head += fmt::format(" {:>10}", model::metric_def(m).short_display);
      rule += " ==========";
    }
    head += fmt::format(" {:>10} {:>10}  Label", "Proc. User", "Proc. Sys.");
    rule += " ========== ==========  =====";
    out += head + "\n" + rule + "\n";
    for (const auto& iv : per[k]) {
      std::string line = fmt::format("{:>6}  {:<9} {:>9.3f} {:>9.3f}", iv.number, iv.reason, double(iv.start_ns) / 1e9,
                                     double(iv.end_ns) / 1e9);
      for (uint32_t m : states) line += fmt::format(" {:>10}", secs(iv.microstate_ns[m]));
      line += iv.has_usage ? fmt::format(" {:>10} {:>10}", secs(iv.utime_ns), secs(iv.stime_ns))
                           : fmt::format(" {:>10} {:>10}", "-", "-");
      line += "  " + iv.label;
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
    if (per[k].empty()) out += "(no samples selected)\n";
  }
  return out;
}

namespace {
json::Value interval_json(const SampleInterval& iv) {
  json::Value ms = json::Value::object();
  for (uint32_t m = 0; m < format::kMsCount; ++m) ms.set(model::metric_def(m).name, iv.microstate_ns[m]);
  json::Value v = json::Value::object()
                      .set("number", iv.number)
                      .set("reason", iv.reason)
                      .set("label", iv.label)
                      .set("start_ns", iv.start_ns)
                      .set("end_ns", iv.end_ns)
                      .set("microstates_ns", std::move(ms));
  if (iv.has_usage)
    v.set("usage", json::Value::object()
                       .set("utime_ns", iv.utime_ns)
                       .set("stime_ns", iv.stime_ns)
                       .set("minflt", iv.minflt)
                       .set("majflt", iv.majflt)
                       .set("nvcsw", iv.nvcsw)
                       .set("nivcsw", iv.nivcsw)
                       .set("inblock", iv.inblock)
                       .set("oublock", iv.oublock)
                       .set("maxrss_kb", iv.maxrss_kb)
                       .set("rss_kb", iv.rss_kb)
                       .set("read_bytes", iv.read_bytes)
                       .set("write_bytes", iv.write_bytes)
                       .set("nthreads", iv.nthreads));
  return v;
}
}  // namespace

json::Value overview_json(const model::Profile& p, const selection::SelectionState& sel,
                          const std::vector<uint32_t>& exps) {
  json::Value list = json::Value::array();
  for (uint32_t x : exps) {
    json::Value samples = json::Value::array();
    for (const auto& iv : selected_intervals(p, sel, x)) samples.push(interval_json(iv));
    list.push(json::Value::object()
                  .set("experiment", x + 1)
                  .set("path", p.experiments()[x].path)
                  .set("samples", std::move(samples)));
  }
  return json::Value::object().set("experiments", std::move(list));
}

namespace {

struct Stat {
  std::string label, key;
  int64_t value;
  bool seconds;
};

std::vector<Stat> statistics_of(const model::Profile& p, const selection::SelectionState& sel,
                                const std::vector<uint32_t>& exps) {
  int64_t real = 0, ms[format::kMsCount] = {}, ut = 0, st = 0, minflt = 0, majflt = 0, vcs = 0, ics = 0, in = 0,
          ou = 0, rd = 0, wr = 0, maxrss = 0, threads = 0, nsamples = 0;
  bool usage = false, io = false;
  for (uint32_t x : exps) {
    for (const auto& iv : selected_intervals(p, sel, x)) {
      ++nsamples;
      real += int64_t(iv.end_ns - iv.start_ns);
      for (uint32_t m = 0; m < format::kMsCount; ++m) ms[m] += iv.microstate_ns[m];
      if (!iv.has_usage) continue;
      usage = true;
      ut += iv.utime_ns, st += iv.stime_ns, minflt += iv.minflt, majflt += iv.majflt;
      vcs += iv.nvcsw, ics += iv.nivcsw, in += iv.inblock, ou += iv.oublock;
      maxrss = std::max(maxrss, iv.maxrss_kb);
      if (iv.read_bytes >= 0) io = true, rd += iv.read_bytes;
      if (iv.write_bytes >= 0) io = true, wr += iv.write_bytes;
    }
    if (sel.experiment_selected(x + 1)) threads += int64_t(p.threads(x).size());
  }
  std::vector<Stat> out;
  out.push_back({"Process real time", "real_ns", real, true});
  if (usage) {
    out.push_back({"User CPU time, process accounting", "utime_ns", ut, true});
    out.push_back({"System CPU time, process accounting", "stime_ns", st, true});
  }
  for (uint32_t m = 0; m < format::kMsCount; ++m)
    out.push_back({model::metric_def(m).display + ", clock profile", model::metric_def(m).name + "_ns", ms[m], true});
  if (usage) {
    out.push_back({"Minor page faults", "minflt", minflt, false});
    out.push_back({"Major page faults", "majflt", majflt, false});
    out.push_back({"Voluntary context switches", "nvcsw", vcs, false});
    out.push_back({"Involuntary context switches", "nivcsw", ics, false});
    out.push_back({"Input blocks", "inblock", in, false});
    out.push_back({"Output blocks", "oublock", ou, false});
    out.push_back({"Max resident set (KB)", "maxrss_kb", maxrss, false});
    if (io) {
      out.push_back({"Bytes read", "read_bytes", rd, false});
      out.push_back({"Bytes written", "write_bytes", wr, false});
    }
  }
  out.push_back({"Threads", "threads", threads, false});
  out.push_back({"Samples", "samples", nsamples, false});
  return out;
}

std::string render_stats(const std::string& title, const std::vector<Stat>& stats) {
  std::string out = title + "\n";
  for (const auto& s : stats)
    out += fmt::format("{:>14}  {}\n", s.seconds ? fmt::format("{:.3f}", double(s.value) / 1e9) : fmt::format("{}", s.value),
                       s.seconds ? s.label + " (sec.)" : s.label);
  return out;
}

json::Value stats_json(const std::vector<Stat>& stats) {
  json::Value v = json::Value::object();
  for (const auto& s : stats) v.set(s.key, s.value);
  return v;
}

}  // namespace

std::string render_statistics(const model::Profile& p, const selection::SelectionState& sel,
                              const std::vector<uint32_t>& exps, bool each) {
  std::string out;
  // Lost callers: samples whose unwind stopped early, stacks cut at the limit (issue 15).
  auto quality = [&](const std::vector<uint32_t>& xs) {
    StackQuality q;
    for (uint32_t x : xs) {
      StackQuality one = stack_quality(p.experiments()[x]);
      q.samples += one.samples, q.unwind_failed += one.unwind_failed, q.truncated += one.truncated;
    }
    return stack_quality_line(q);
  };
  if (exps.size() == 1 && !each)
    return render_stats(fmt::format("Execution statistics for experiment {}: {}", exps[0] + 1,
                                    p.experiments()[exps[0]].path),
                        statistics_of(p, sel, exps)) +
           quality(exps);
  out = render_stats(fmt::format("Execution statistics, sum of {} experiments", exps.size()), statistics_of(p, sel, exps)) +
        quality(exps);
  if (each)
    for (uint32_t x : exps)
      out += "\n" + render_stats(fmt::format("Execution statistics for experiment {}: {}", x + 1, p.experiments()[x].path),
                                 statistics_of(p, sel, {x}));
  return out;
}

json::Value statistics_json(const model::Profile& p, const selection::SelectionState& sel,
                            const std::vector<uint32_t>& exps, bool each) {
  json::Value v = json::Value::object().set("total", stats_json(statistics_of(p, sel, exps)));
  if (each) {
    json::Value list = json::Value::array();
    for (uint32_t x : exps)
      list.push(stats_json(statistics_of(p, sel, {x})).set("experiment", x + 1));
    v.set("experiments", std::move(list));
  }
  return v;
}

}  // namespace erkit::views
