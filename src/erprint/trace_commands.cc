// er_print commands of the trace data kinds: leaks and allocs (seed-spec §7.5), heapstat, the
// I/O reports gprofng calls ioactivity, iodetail, iocallstack and iostat, and syncstat.
#include "erprint/trace_commands.h"

#include <fmt/format.h>

#include <functional>

#include "erprint/command_groups.h"
#include "views/trace_views.h"

namespace erkit::erprint {
namespace {

enum class Kind { Heap, Sync, Io };

// Whether any loaded experiment recorded the data kind (events, or the setting that asked for
// it: a heap trace of a program that never allocated still has an empty leak list).
bool recorded(Session& s, Kind k) {
  for (const auto& e : s.profile().experiments()) {
    const auto& st = e.log.settings;
    auto on = [&](const char* name, const char* key, const char* off) {
      auto it = st.find(name);
      if (it == st.end()) return false;
      auto f = it->second.find(key);
      return f != it->second.end() && f->second != off;
    };
    switch (k) {
      case Kind::Heap:
        if (!e.heap.empty() || on("heap", "on", "0")) return true;
        break;
      case Kind::Sync:
        if (!e.sync.empty() || on("sync", "value", "off")) return true;
        break;
      case Kind::Io:
        if (!e.io.empty() || on("io", "on", "0")) return true;
        break;
    }
  }
  return false;
}

// The report as text, or as JSON in JSON mode (each computed only when needed).
CommandResult report(Session& s, Kind k, const char* cmd, const std::function<std::string()>& text,
                     const std::function<json::Value()>& data) {
  if (!recorded(s, k)) {
    const char* what = k == Kind::Heap ? "heap trace data (collect -H on)"
                       : k == Kind::Sync ? "synchronization wait trace data (collect -s on)"
                                         : "I/O trace data (collect -i on)";
    return command_error(fmt::format("{}: the loaded experiments have no {}", cmd, what));
  }
  if (s.format == OutputFormat::Json) return emit_report(s, cmd, "", data());
  return emit_text(s, cmd, text());
}

}  // namespace

void add_trace_commands(std::vector<Command>& t) {
  t.push_back({"leaks", {}, 0, 0, "", "List memory leaks aggregated by call stack, most bytes first",
               [](Session& s, const auto&) {
                 auto& p = s.profile();
                 return report(
                     s, Kind::Heap, "leaks", [&] { return views::render_leaks(p, s.limit, s.names); },
                     [&] { return views::leaks_json(p, s.limit, s.names); });
               }});
  t.push_back({"allocs", {}, 0, 0, "", "List allocations aggregated by call stack, most bytes first",
               [](Session& s, const auto&) {
                 auto& p = s.profile();
                 return report(
                     s, Kind::Heap, "allocs", [&] { return views::render_allocs(p, s.limit, s.names); },
                     [&] { return views::allocs_json(p, s.limit, s.names); });
               }});
  t.push_back({"heapstat", {}, 0, 0, "", "Heap statistics: sizes, leaks, peak live bytes",
               [](Session& s, const auto&) {
                 auto& p = s.profile();
                 return report(
                     s, Kind::Heap, "heapstat", [&] { return views::render_heap_stat(p); },
                     [&] { return views::heap_stat_json(p); });
               }});
  t.push_back({"ioactivity", {}, 0, 0, "", "I/O activity per file",
               [](Session& s, const auto&) {
                 auto& p = s.profile();
                 return report(
                     s, Kind::Io, "ioactivity", [&] { return views::render_io_activity(p); },
                     [&] { return views::io_activity_json(p); });
               }});
  t.push_back({"iodetail", {}, 0, 0, "", "I/O activity per opened file (virtual file descriptor)",
               [](Session& s, const auto&) {
                 auto& p = s.profile();
                 return report(
                     s, Kind::Io, "iodetail", [&] { return views::render_io_detail(p); },
                     [&] { return views::io_detail_json(p); });
               }});
  t.push_back({"iocallstack", {}, 0, 0, "", "I/O activity per call stack",
               [](Session& s, const auto&) {
                 auto& p = s.profile();
                 return report(
                     s, Kind::Io, "iocallstack", [&] { return views::render_io_callstacks(p, s.limit, s.names); },
                     [&] { return views::io_callstacks_json(p, s.limit, s.names); });
               }});
  t.push_back({"iostat", {}, 0, 0, "", "I/O statistics: sizes and times of reads, writes, other calls",
               [](Session& s, const auto&) {
                 auto& p = s.profile();
                 return report(
                     s, Kind::Io, "iostat", [&] { return views::render_io_stat(p); },
                     [&] { return views::io_stat_json(p); });
               }});
  t.push_back({"syncstat", {}, 0, 0, "", "Synchronization waits per lock object",
               [](Session& s, const auto&) {
                 auto& p = s.profile();
                 return report(
                     s, Kind::Sync, "syncstat", [&] { return views::render_sync_stat(p, s.limit); },
                     [&] { return views::sync_stat_json(p, s.limit); });
               }});
}

}  // namespace erkit::erprint
