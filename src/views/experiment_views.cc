#include "views/experiment_views.h"

#include <fmt/format.h>

#include <ctime>
#include <set>

#include "format/log_keys.h"
#include "views/stack_quality.h"

namespace erkit::views {
namespace log_key = format::log_key;
namespace log_setting = format::log_setting;
namespace {

std::string format_realtime(int64_t ns) {
  if (ns <= 0) return "unknown";
  time_t t = time_t(ns / 1000000000);
  char buf[64];
  struct tm tm;
  localtime_r(&t, &tm);
  strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", &tm);
  return buf;
}

std::string end_description(const reader::RunLog& l) {
  if (l.end_how == "exit") return fmt::format("exited with status {}", l.end_status);
  if (l.end_how == "signal") return fmt::format("killed by signal {} ({})", l.end_status, l.end_signal_name);
  if (!l.collector_exit.empty()) return fmt::format("ended ({}), collect did not report the status", l.collector_exit);
  return "end not recorded (collect or the target was killed)";
}

std::string setting(const reader::RunLog& l, const std::string& name, const std::string& field) {
  auto it = l.settings.find(name);
  if (it == l.settings.end()) return "";
  auto f = it->second.find(field);
  return f == it->second.end() ? "" : f->second;
}

// What recording cost the process, as the collector measured it inside the process.
std::string cost_description(const reader::CollectorCost& c) {
  std::string out = fmt::format("{:.3f} s", double(c.total_ns()) / 1e9);
  if (c.process_cpu_ns)
    out += fmt::format(" of {:.3f} s process CPU ({:.2f} %)", double(c.process_cpu_ns) / 1e9,
                       100.0 * double(c.total_ns()) / double(c.process_cpu_ns));
  out += fmt::format("\n  clock-profiling handler {:.3f} s", double(c.signal_ns) / 1e9);
  if (c.signals)
    out += fmt::format(" ({} signals, {:.1f} us each)", c.signals, double(c.signal_ns) / double(c.signals) / 1e3);
  out += fmt::format(", collector threads {:.3f} s, start {:.3f} s, exit {:.3f} s", double(c.helper_cpu_ns) / 1e9,
                     double(c.start_cpu_ns) / 1e9, double(c.exit_cpu_ns) / 1e9);
  return out;
}

}  // namespace

std::string render_header(const model::Profile& p, uint32_t x) {
  const reader::Experiment& e = p.experiments()[x];
  const auto& l = e.log;
  std::string out;
  for (const auto& n : e.notes) out += n + "\n";
  out += fmt::format("Experiment: {}\n", e.path);
  if (e.problems.empty()) out += "No errors\n";
  else
    for (const auto& pr : e.problems) out += fmt::format("Error: {}: {}\n", pr.file, pr.message);
  if (l.warnings.empty()) out += "No warnings\n";
  else
    for (const auto& [t, w] : l.warnings) out += fmt::format("Warning ({:.3f} s): {}\n", double(t) / 1e9, w);
  out += fmt::format("Experiment started {}\n", format_realtime(l.realtime_start_ns));
  out += fmt::format("Target command (64-bit): '{}{}{}'\n", l.target, l.args.empty() ? "" : " ", l.args);
  out += fmt::format("Process ID: {}, Parent PID: {}\n", l.pid, l.ppid);
  // Imported recordings (perf) lack some of these: "unknown" rather than a blank.
  auto known = [](const std::string& v) { return v.empty() ? std::string("unknown") : v; };
  auto count = [](int64_t v) { return v > 0 ? fmt::format("{}", v) : std::string("unknown"); };
  out += fmt::format("Current working directory: {}\n", known(l.cwd));
  out += fmt::format("Collector version: erkit {}; Host '{}' ({}, Linux {})\n", l.collect_version, known(l.host),
                     known(l.arch), known(l.os));
  // "16 CPUs at 3000 MHz" as the manual shows it: the rate cycles are converted to time with.
  std::string rate;
  if (l.cpu_khz)
    rate = l.cpu_khz % 1000 == 0 ? fmt::format(" at {} MHz", l.cpu_khz / 1000)
                                 : fmt::format(" at {:.3f} MHz", double(l.cpu_khz) / 1000);
  out += fmt::format("  Hardware: {} CPUs{}, page size {}\n", count(l.ncpus), rate, count(l.pagesize));
  out += "Data collection parameters:\n";
  if (l.clock_interval_ns) out += fmt::format("  Clock-profiling, interval = {} microsecs.\n", l.clock_interval_ns / 1000);
  else out += "  Clock-profiling off\n";
  for (const char* kind : {log_setting::kHeap, log_setting::kSync, log_setting::kIo}) {
    std::string on = setting(l, kind, log_key::kOn);
    // Synchronization tracing logs its -s value (on, all, calibrate or a threshold), not on=.
    if (kind == std::string(log_setting::kSync)) {
      std::string v = setting(l, log_setting::kSync, log_key::kValue);
      if (!v.empty() && v != "off") out += fmt::format("  Synchronization wait tracing on (-s {})\n", v);
      continue;
    }
    if (on == "1") out += fmt::format("  {} tracing on\n", kind == std::string(log_setting::kHeap) ? "Heap" : "I/O");
  }
  if (std::string ms = setting(l, log_setting::kSample, log_key::kIntervalMs); !ms.empty()) {
    int v = std::atoi(ms.c_str());
    out += v ? fmt::format("  Periodic sampling, {} secs.\n", v % 1000 ? fmt::format("{:.3f}", v / 1000.0)
                                                                       : fmt::format("{}", v / 1000))
             : "  Periodic sampling off\n";
  }
  if (l.settings.count(log_setting::kFollow))
    out += fmt::format("  Follow descendant processes: {}\n",
                       setting(l, log_setting::kFollow, log_key::kValue).empty() ? "off"
                                                                    : setting(l, log_setting::kFollow, log_key::kValue));
  if (l.limit_reached) out += "  Data size limit reached: recording of events stopped early\n";
  if (!e.descendants.empty()) {
    size_t loaded = 0;
    for (const auto& d : e.descendants)
      for (const auto& o : p.experiments())
        if (o.path == d) {
          ++loaded;
          break;
        }
    out += fmt::format("Descendant experiments: {} ({} loaded{})\n", e.descendants.size(), loaded,
                       loaded ? "; en_desc off excludes them" : "; en_desc on includes them");
  }
  out += stack_quality_line(stack_quality(e));
  // Java threads by name (the agent's records; docs/java.md), with the numbers thread_select takes.
  std::string java_threads;
  for (const auto& th : p.threads(x))
    if (!th.name.empty()) java_threads += fmt::format("{}{} (thread {})", java_threads.empty() ? "" : ", ", th.name, th.number);
  if (!java_threads.empty()) out += fmt::format("Java threads: {}\n", java_threads);
  out += fmt::format("Target {}\n", end_description(l));
  out += fmt::format("Experiment Ended: {:.3f} s\n", double(e.duration_ns()) / 1e9);
  if (l.cost.known) out += fmt::format("Collector overhead: {}\n", cost_description(l.cost));
  return out;
}

json::Value header_json(const model::Profile& p, uint32_t x) {
  const reader::Experiment& e = p.experiments()[x];
  const auto& l = e.log;
  json::Value notes = json::Value::array(), errors = json::Value::array(), warns = json::Value::array(),
              settings = json::Value::object(), desc = json::Value::array();
  for (const auto& n : e.notes) notes.push(n);
  for (const auto& pr : e.problems) errors.push(json::Value::object().set("file", pr.file).set("message", pr.message));
  for (const auto& [t, w] : l.warnings) warns.push(json::Value::object().set("tstamp_ns", t).set("text", w));
  for (const auto& [name, fields] : l.settings) {
    json::Value f = json::Value::object();
    for (const auto& [k, v] : fields) f.set(k, v);
    settings.set(name, std::move(f));
  }
  for (const auto& d : e.descendants) desc.push(d);
  json::Value java_threads = json::Value::array();
  for (const auto& th : p.threads(x))
    if (!th.name.empty())
      java_threads.push(json::Value::object().set("thread", th.number).set("lwp", th.tid).set("name", th.name));
  json::Value end = json::Value::object().set("how", l.end_how).set("status", l.end_status);
  if (!l.end_signal_name.empty()) end.set("signal_name", l.end_signal_name);
  end.set("collector_saw", l.collector_exit).set("description", end_description(l));
  json::Value cost = json::Value::object();
  if (l.cost.known)
    cost.set("signals", l.cost.signals)
        .set("signal_ns", l.cost.signal_ns)
        .set("helper_cpu_ns", l.cost.helper_cpu_ns)
        .set("start_cpu_ns", l.cost.start_cpu_ns)
        .set("exit_cpu_ns", l.cost.exit_cpu_ns)
        .set("total_ns", l.cost.total_ns())
        .set("process_cpu_ns", l.cost.process_cpu_ns);
  return json::Value::object()
      .set("id", x + 1)
      .set("path", e.path)
      .set("notes", std::move(notes))
      .set("errors", std::move(errors))
      .set("warnings", std::move(warns))
      .set("started_realtime_ns", l.realtime_start_ns)
      .set("target", l.target)
      .set("args", l.args)
      .set("pid", l.pid)
      .set("ppid", l.ppid)
      .set("cwd", l.cwd)
      .set("collector_version", l.collect_version)
      .set("host", l.host)
      .set("arch", l.arch)
      .set("os", l.os)
      .set("ncpus", l.ncpus)
      .set("pagesize", l.pagesize)
      .set("cpu_khz", int64_t(l.cpu_khz))
      .set("clock_interval_ns", l.clock_interval_ns)
      .set("settings", std::move(settings))
      .set("limit_reached", l.limit_reached)
      .set("descendants", std::move(desc))
      .set("java_threads", std::move(java_threads))
      .set("end", std::move(end))
      .set("collector_cost", std::move(cost))
      .set("duration_ns", e.duration_ns());
}

std::string render_experiment_list(const model::Profile& p, const selection::SelectionState& sel) {
  std::string out = "ID Sel     PID Experiment\n== === ======= ==========\n";
  for (uint32_t x = 0; x < p.experiments().size(); ++x) {
    const auto& e = p.experiments()[x];
    out += fmt::format("{:<2} {:<3} {:>7} {}\n", x + 1, sel.experiment_selected(x + 1) ? "yes" : "no", e.log.pid, e.path);
  }
  return out;
}

json::Value experiment_list_json(const model::Profile& p, const selection::SelectionState& sel) {
  json::Value list = json::Value::array();
  for (uint32_t x = 0; x < p.experiments().size(); ++x) {
    const auto& e = p.experiments()[x];
    list.push(json::Value::object()
                  .set("id", x + 1)
                  .set("selected", sel.experiment_selected(x + 1))
                  .set("pid", e.log.pid)
                  .set("ppid", e.log.ppid)
                  .set("rank", e.log.mpi_rank)
                  .set("path", e.path));
  }
  return json::Value::object().set("experiments", std::move(list));
}

namespace {
// Load objects of the experiments' maps in which no event fell (issue 15: the manual's
// object_list lists every load object, §14.6), in map order, each path once; the collector's
// own libraries are not the program's.
std::vector<std::string> objects_without_events(const model::Profile& p) {
  std::set<std::string> seen;
  for (model::ObjId o : p.objects_in_load_order()) seen.insert(p.functions().object(o).path);
  std::vector<std::string> out;
  for (const auto& e : p.experiments())
    for (const auto& lo : e.objects) {
      std::string base = lo.path.substr(lo.path.rfind('/') + 1);
      if (base.rfind("libcollector", 0) == 0 || !seen.insert(lo.path).second) continue;
      out.push_back(lo.path);
    }
  return out;
}
std::string base_of(const std::string& path) { return path.substr(path.rfind('/') + 1); }
}  // namespace

std::string render_object_list(const model::Profile& p) {
  const auto& ft = p.functions();
  std::string out = "Sel Load Object\n=== ==================\n";
  for (model::ObjId o : p.objects_in_load_order())
    out += fmt::format("{:<3} <{}>\n", p.object_expanded(o) ? "Yes" : "No", ft.object(o).name);
  for (const auto& path : objects_without_events(p)) out += fmt::format("Yes <{}> (no events)\n", base_of(path));
  return out;
}

json::Value object_list_json(const model::Profile& p) {
  const auto& ft = p.functions();
  json::Value list = json::Value::array();
  for (model::ObjId o : p.objects_in_load_order())
    list.push(json::Value::object()
                  .set("index", o)
                  .set("name", ft.object(o).name)
                  .set("path", ft.object(o).path)
                  .set("expanded", p.object_expanded(o)));
  for (const auto& path : objects_without_events(p))
    list.push(json::Value::object().set("name", base_of(path)).set("path", path).set("expanded", true).set("events", false));
  return json::Value::object().set("objects", std::move(list));
}

namespace {
std::vector<std::string> object_problems(const model::Profile& p, const std::string& path) {
  std::vector<std::string> out;
  for (const auto& pr : p.resolver().problems())
    if (pr.find(path) != std::string::npos) out.push_back(pr);
  return out;
}
}  // namespace

std::string render_objects(const model::Profile& p, size_t limit) {
  const auto& ft = p.functions();
  std::string out;
  size_t n = 0;
  for (model::ObjId o : p.objects_in_load_order()) {
    if (limit && n++ >= limit) break;
    const auto& lo = ft.object(o);
    out += fmt::format("<{}>  {}\n", lo.name, lo.path);
    out += fmt::format("    Build ID: {}\n", lo.build_id.empty() ? "(none)" : lo.build_id);
    auto probs = object_problems(p, lo.path);
    if (probs.empty()) out += "    No warnings\n";
    for (const auto& pr : probs) out += fmt::format("    Warning: {}\n", pr);
  }
  return out;
}

json::Value objects_json(const model::Profile& p, size_t limit) {
  const auto& ft = p.functions();
  json::Value list = json::Value::array();
  size_t n = 0;
  for (model::ObjId o : p.objects_in_load_order()) {
    if (limit && n++ >= limit) break;
    const auto& lo = ft.object(o);
    json::Value w = json::Value::array();
    for (const auto& pr : object_problems(p, lo.path)) w.push(pr);
    list.push(json::Value::object()
                  .set("index", o)
                  .set("name", lo.name)
                  .set("path", lo.path)
                  .set("build_id", lo.build_id)
                  .set("warnings", std::move(w)));
  }
  return json::Value::object().set("objects", std::move(list));
}

}  // namespace erkit::views
