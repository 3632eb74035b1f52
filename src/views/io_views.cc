// I/O reports: activity per file and per opened file, per call stack, and statistics.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "model/trace_summaries.h"
#include "views/trace_format.h"
#include "views/trace_views.h"

namespace erkit::views {
namespace {

std::vector<std::string> io_cells(const model::IoTotals& t, const std::string& name) {
  return {seconds6(t.time_ns),         fmt::format("{}", t.read_bytes), fmt::format("{}", t.reads),
          fmt::format("{}", t.write_bytes), fmt::format("{}", t.writes), fmt::format("{}", t.others),
          fmt::format("{}", t.errors), name};
}
json::Value io_json(const model::IoTotals& t, const std::string& name) {
  return json::Value::object()
      .set("name", name)
      .set("time_ns", t.time_ns)
      .set("read_bytes", t.read_bytes)
      .set("reads", t.reads)
      .set("write_bytes", t.write_bytes)
      .set("writes", t.writes)
      .set("other_calls", t.others)
      .set("errors", t.errors);
}

PlainTable io_table(const char* what) {
  return PlainTable({{"I/O Time", "Read", "Reads", "Write", "Writes", "Other", "Errors", what},
                     {"sec.", "Bytes", "", "Bytes", "", "Calls", "", ""}});
}

std::string render_grouped(const model::IoGroups& g, const char* title, const char* what) {
  PlainTable t = io_table(what);
  t.add(io_cells(g.total, "<Total>"));
  for (const auto& r : g.rows) t.add(io_cells(r.totals, r.name));
  return fmt::format("{}\n\n{}\n", title, t.render());
}

// by_descriptor: with the per-descriptor fields of each row.
json::Value grouped_json(const model::IoGroups& g, bool by_descriptor) {
  json::Value files = json::Value::array();
  for (const auto& r : g.rows) {
    json::Value row = io_json(r.totals, r.name);
    if (by_descriptor) {
      row.set("file", r.file).set("iovfd", r.iovfd).set("fd", number_or_null(r.fd));
      if (g.several_experiments) row.set("experiment", r.experiment);
    }
    files.push(std::move(row));
  }
  return json::Value::object().set("total", io_json(g.total, "<Total>")).set("files", std::move(files));
}

struct OpStats {
  SizeHistogram sizes;
  uint64_t time_ns = 0, longest_ns = 0;
  int64_t calls = 0, errors = 0;
  void add(const format::IoEventRecord& r, bool with_size) {
    ++calls;
    time_ns += r.duration_ns;
    longest_ns = std::max(longest_ns, r.duration_ns);
    if (r.bytes < 0) ++errors;
    else if (with_size) sizes.add(uint64_t(r.bytes));
  }
  // kind: "Write"; noun: "write" (in "Longest write", "Smallest write bytes").
  std::string render(const char* kind, const char* noun, const char* calls_title) const {
    std::string out = fmt::format("{} Statistics\n", kind);
    if (calls == 0) return out + "  no calls\n\n";
    std::string lower(noun);
    if (sizes.count) {
      out += sizes.render("I/O Size Range", calls_title);
      out += fmt::format("{:<34}{}\n{:<34}{}\n", fmt::format("Smallest {} bytes", lower), sizes.min(),
                         fmt::format("Largest {} bytes", lower), sizes.max);
    }
    out += fmt::format("{:<34}{} (secs.)\n{:<34}{} (secs.)\n{:<34}{}\n{:<34}{}\n", fmt::format("Longest {}", lower),
                       seconds6(longest_ns), "Total time", seconds6(time_ns), "Total calls", calls, "Failed calls",
                       errors);
    if (sizes.count) out += fmt::format("{:<34}{}\n", "Total bytes", sizes.bytes);
    return out + "\n";
  }
  json::Value to_json() const {
    json::Value v = json::Value::object()
                        .set("calls", calls)
                        .set("failed", errors)
                        .set("time_ns", time_ns)
                        .set("longest_ns", longest_ns);
    if (sizes.count) v.set("sizes", sizes.to_json());
    return v;
  }
};

struct IoStat {
  OpStats reads, writes, others;
};

IoStat io_stat(const model::Profile& p) {
  IoStat st;
  model::for_each_selected_io(p, [&](uint32_t, const format::IoEventRecord& r) {
    if (r.op == format::kIoRead) st.reads.add(r, true);
    else if (r.op == format::kIoWrite) st.writes.add(r, true);
    else st.others.add(r, false);
  });
  return st;
}

// I/O per call stack: time, read bytes, reads, write bytes, writes, other calls.
const std::vector<uint32_t>& callstack_metrics() {
  using namespace model;
  static const std::vector<uint32_t> ms = {kIoTime, kIoReadBytes, kIoReadCount, kIoWriteBytes, kIoWriteCount,
                                           kIoOtherCount};
  return ms;
}

struct IoStacks {
  std::vector<StackGroup> groups;
  std::vector<int64_t> total;
};

IoStacks io_stacks(const model::Profile& p, const NameOptions& names) {
  IoStacks st;
  const auto& ms = callstack_metrics();
  st.groups = group_by_stack(p, names, ms);
  std::stable_sort(st.groups.begin(), st.groups.end(),
                   [](const StackGroup& a, const StackGroup& b) { return a.values[0] > b.values[0]; });
  st.total.assign(ms.size(), 0);
  for (const auto& g : st.groups)
    for (size_t i = 0; i < ms.size(); ++i) st.total[i] += g.values[i];
  return st;
}

json::Value io_sums_json(const std::vector<int64_t>& v, json::Value into = json::Value::object()) {
  return into.set("time_ns", v[0])
      .set("read_bytes", v[1])
      .set("reads", v[2])
      .set("write_bytes", v[3])
      .set("writes", v[4])
      .set("other_calls", v[5]);
}

}  // namespace

std::string render_io_activity(const model::Profile& p) {
  return render_grouped(model::io_by_file(p), "I/O activity by file, sorted by I/O time", "File");
}

std::string render_io_detail(const model::Profile& p) {
  return render_grouped(model::io_by_descriptor(p), "I/O activity by opened file (virtual file descriptor), sorted by I/O time",
                        "File");
}

json::Value io_activity_json(const model::Profile& p) { return grouped_json(model::io_by_file(p), false); }
json::Value io_detail_json(const model::Profile& p) { return grouped_json(model::io_by_descriptor(p), true); }

std::string render_io_callstacks(const model::Profile& p, size_t limit, const NameOptions& names) {
  IoStacks st = io_stacks(p, names);
  auto summary = [](const std::vector<int64_t>& v) {
    return fmt::format("I/O Time = {} (secs.), Read Bytes = {}, Reads = {}, Write Bytes = {}, Writes = {}, "
                       "Other I/O = {}",
                       seconds6(uint64_t(v[0])), v[1], v[2], v[3], v[4], v[5]);
  };
  std::string out = fmt::format("I/O call stacks, sorted by I/O time: {} distinct\n\n<Total>\n{}\n\n",
                                st.groups.size(), summary(st.total));
  size_t n = limit ? std::min(limit, st.groups.size()) : st.groups.size();
  for (size_t i = 0; i < n; ++i) {
    out += fmt::format("Stack #{}, {}\n", i + 1, summary(st.groups[i].values));
    for (const auto& f : st.groups[i].frames) out += "    " + f.text() + "\n";
    out += "\n";
  }
  return out;
}

json::Value io_callstacks_json(const model::Profile& p, size_t limit, const NameOptions& names) {
  IoStacks st = io_stacks(p, names);
  json::Value stacks = json::Value::array();
  size_t n = limit ? std::min(limit, st.groups.size()) : st.groups.size();
  for (size_t i = 0; i < n; ++i)
    stacks.push(io_sums_json(st.groups[i].values, json::Value::object().set("rank", i + 1))
                    .set("stack", stack_json(st.groups[i].frames)));
  return json::Value::object().set("total", io_sums_json(st.total)).set("stacks", std::move(stacks));
}

std::string render_io_stat(const model::Profile& p) {
  IoStat st = io_stat(p);
  return st.writes.render("Write", "write", "Write Calls") + st.reads.render("Read", "read", "Read Calls") +
         st.others.render("Other I/O", "other call", "Calls");
}

json::Value io_stat_json(const model::Profile& p) {
  IoStat st = io_stat(p);
  return json::Value::object()
      .set("write", st.writes.to_json())
      .set("read", st.reads.to_json())
      .set("other", st.others.to_json());
}

}  // namespace erkit::views
