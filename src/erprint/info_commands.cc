#include "erprint/info_commands.h"

#include <fmt/format.h>

#include <ctime>
#include <map>

#include "erprint/commands.h"

namespace erkit::erprint {
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
  if (l.end_how == "signal")
    return fmt::format("killed by signal {} ({})", l.end_status, l.end_signal_name);
  if (!l.collector_exit.empty()) return fmt::format("ended ({}), collect did not report the status", l.collector_exit);
  return "end not recorded (collect or the target was killed)";
}

std::string header_text(const reader::Experiment& e) {
  const auto& l = e.log;
  std::string out;
  for (const auto& n : e.notes) out += n + "\n";
  out += fmt::format("Experiment: {}\n", e.path);
  if (e.problems.empty()) out += "No errors\n";
  else
    for (const auto& p : e.problems) out += fmt::format("Error: {}: {}\n", p.file, p.message);
  if (l.warnings.empty()) out += "No warnings\n";
  else
    for (const auto& [t, w] : l.warnings) out += fmt::format("Warning ({:.3f} s): {}\n", double(t) / 1e9, w);
  out += fmt::format("Experiment started {}\n", format_realtime(l.realtime_start_ns));
  out += fmt::format("Target command (64-bit): '{}{}{}'\n", l.target, l.args.empty() ? "" : " ", l.args);
  out += fmt::format("Process ID: {}, Parent PID: {}\n", l.pid, l.ppid);
  out += fmt::format("Current working directory: {}\n", l.cwd);
  out += fmt::format("Collector version: erkit {}; Host '{}' ({}, Linux {})\n", l.collect_version, l.host, l.arch, l.os);
  out += fmt::format("  Hardware: {} CPUs, page size {}\n", l.ncpus, l.pagesize);
  out += "Data collection parameters:\n";
  if (l.clock_interval_ns)
    out += fmt::format("  Clock-profiling, interval = {} microsecs.\n", l.clock_interval_ns / 1000);
  else
    out += "  Clock-profiling off\n";
  if (auto it = l.settings.find("sample"); it != l.settings.end() && it->second.count("interval_ms")) {
    int ms = std::atoi(it->second.at("interval_ms").c_str());
    out += ms ? fmt::format("  Periodic sampling, {} secs.\n", ms / 1000) : "  Periodic sampling off\n";
  }
  if (auto it = l.settings.find("follow"); it != l.settings.end())
    out += fmt::format("  Follow descendant processes: {}\n", it->second.count("value") ? it->second.at("value") : "off");
  if (l.limit_reached) out += "  Data size limit reached: recording of events stopped early\n";
  out += fmt::format("Target {}\n", end_description(l));
  out += fmt::format("Experiment Ended: {:.3f} s\n", double(e.duration_ns()) / 1e9);
  return out;
}

CommandResult print_text(Session& s, const std::string& text) {
  fmt::print(s.out, "{}", text);
  std::fflush(s.out);
  return {};
}

}  // namespace

void add_info_commands(std::vector<Command>& t) {
  t.push_back({"header", {}, 0, 1, "[exp_id]", "Describe each experiment (settings, target, how it ended)",
               [](Session& s, const auto&) {
                 std::string out;
                 for (const auto& e : s.profile().experiments()) out += header_text(e) + "\n";
                 return print_text(s, out);
               }});
  t.push_back({"experiment_list", {"exp_list"}, 0, 0, "", "List the loaded experiments with their IDs",
               [](Session& s, const auto&) {
                 std::string out = "ID Sel     PID Experiment\n== === ======= ==========\n";
                 uint32_t id = 1;
                 for (const auto& e : s.profile().experiments())
                   out += fmt::format("{:<2} yes {:>7} {}\n", id++, e.log.pid, e.path);
                 return print_text(s, out);
               }});
  t.push_back({"thread_list", {"lwp_list"}, 0, 0, "", "List the threads that have data",
               [](Session& s, const auto&) {
                 std::string out = "Exp Sel     LWP    Samples   User CPU\n=== === ======= ========== ==========\n";
                 uint32_t id = 1;
                 for (const auto& e : s.profile().experiments()) {
                   std::map<uint32_t, std::pair<uint64_t, uint64_t>> per;
                   for (const auto& c : e.clock) {
                     per[c.tid].first++;
                     per[c.tid].second += c.ns[format::kMsUser];
                   }
                   for (const auto& [tid, v] : per)
                     out += fmt::format("{:>3} yes {:>7} {:>10} {:>10.3f}\n", id, tid, v.first, double(v.second) / 1e9);
                   ++id;
                 }
                 return print_text(s, out);
               }});
  t.push_back({"outfile", {}, 1, 1, "file|-|--", "Send further output to a file (- stdout, -- stderr)",
               [](Session& s, const auto& a) -> CommandResult {
                 FILE* f = a[0] == "-" ? stdout : a[0] == "--" ? stderr : std::fopen(a[0].c_str(), "w");
                 if (!f) return {false, false, fmt::format("outfile: cannot open '{}'", a[0])};
                 if (s.out != stdout && s.out != stderr) std::fclose(s.out);
                 s.out = f;
                 return {};
               }});
  t.push_back({"appendfile", {}, 1, 1, "file", "Append further output to a file",
               [](Session& s, const auto& a) -> CommandResult {
                 FILE* f = std::fopen(a[0].c_str(), "a");
                 if (!f) return {false, false, fmt::format("appendfile: cannot open '{}'", a[0])};
                 if (s.out != stdout && s.out != stderr) std::fclose(s.out);
                 s.out = f;
                 return {};
               }});
}

}  // namespace erkit::erprint
