// I/O reports: activity per file and per opened file, per call stack, and statistics.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "views/trace_format.h"
#include "views/trace_views.h"

namespace erkit::views {
namespace {

struct IoTotals {
  uint64_t time_ns = 0;
  int64_t read_bytes = 0, write_bytes = 0;
  int64_t reads = 0, writes = 0, others = 0, errors = 0;

  void add(const format::IoEventRecord& r) {
    time_ns += r.duration_ns;
    int64_t b = r.bytes > 0 ? r.bytes : 0;
    if (r.op == format::kIoRead) reads++, read_bytes += b;
    else if (r.op == format::kIoWrite) writes++, write_bytes += b;
    else others++;
    if (r.bytes < 0) errors++;
  }
  std::vector<std::string> cells(const std::string& name) const {
    return {seconds6(time_ns),       fmt::format("{}", read_bytes), fmt::format("{}", reads),
            fmt::format("{}", write_bytes), fmt::format("{}", writes), fmt::format("{}", others),
            fmt::format("{}", errors), name};
  }
  json::Value to_json(const std::string& name) const {
    return json::Value::object()
        .set("name", name)
        .set("time_ns", time_ns)
        .set("read_bytes", read_bytes)
        .set("reads", reads)
        .set("write_bytes", write_bytes)
        .set("writes", writes)
        .set("other_calls", others)
        .set("errors", errors);
  }
};

PlainTable io_table(const char* what) {
  return PlainTable({{"I/O Time", "Read", "Reads", "Write", "Writes", "Other", "Errors", what},
                     {"sec.", "Bytes", "", "Bytes", "", "Calls", "", ""}});
}

// The name a file id is shown under: its path; the standard descriptors by their role.
std::string file_name(const reader::Experiment& e, uint32_t id) {
  auto it = e.log.files.find(id);
  if (it == e.log.files.end()) return id ? fmt::format("<file {}>", id) : "<unknown>";
  auto get = [&](const char* k) {
    auto f = it->second.find(k);
    return f == it->second.end() ? std::string() : f->second;
  };
  if (get("how") == "std") {
    std::string fd = get("fd");
    if (fd == "0") return "<stdin>";
    if (fd == "1") return "<stdout>";
    if (fd == "2") return "<stderr>";
  }
  std::string path = get("path");
  return path.empty() ? "<unknown>" : path;
}

// A row of the per-file reports: its name and (JSON) the fields it was made from.
struct IoKey {
  std::string name;
  json::Value fields;
};

struct IoGrouped {
  IoTotals total;
  std::vector<std::pair<IoKey, IoTotals>> rows;  // most I/O time first
};

template <typename Key>
IoGrouped group_io(model::Profile& p, Key key) {
  std::map<std::string, std::pair<IoKey, IoTotals>> by;
  IoGrouped g;
  uint32_t x = 0;
  for (const auto& e : p.experiments()) {
    ++x;
    for (const auto& r : e.io) {
      IoKey k = key(x, e, r);
      auto it = by.find(k.name);
      if (it == by.end()) it = by.emplace(k.name, std::make_pair(k, IoTotals{})).first;
      it->second.second.add(r);
      g.total.add(r);
    }
  }
  for (auto& [name, row] : by) g.rows.push_back(std::move(row));
  std::stable_sort(g.rows.begin(), g.rows.end(), [](const auto& a, const auto& b) {
    if (a.second.time_ns != b.second.time_ns) return a.second.time_ns > b.second.time_ns;
    return a.first.name < b.first.name;
  });
  return g;
}

std::string render_grouped(const IoGrouped& g, const char* title, const char* what) {
  PlainTable t = io_table(what);
  t.add(g.total.cells("<Total>"));
  for (const auto& [k, tot] : g.rows) t.add(tot.cells(k.name));
  return fmt::format("{}\n\n{}\n", title, t.render());
}

json::Value grouped_json(const IoGrouped& g) {
  json::Value files = json::Value::array();
  for (const auto& [k, tot] : g.rows) {
    json::Value row = tot.to_json(k.name);
    for (size_t i = 0; i < k.fields.keys().size(); ++i) row.set(k.fields.keys()[i], k.fields.elements()[i]);
    files.push(std::move(row));
  }
  return json::Value::object().set("total", g.total.to_json("<Total>")).set("files", std::move(files));
}

IoGrouped by_file(model::Profile& p) {
  return group_io(p, [](uint32_t, const reader::Experiment& e, const format::IoEventRecord& r) {
    return IoKey{file_name(e, r.file_id), {}};
  });
}

IoGrouped by_descriptor(model::Profile& p) {
  bool several = p.experiments().size() > 1;
  return group_io(p, [several](uint32_t x, const reader::Experiment& e, const format::IoEventRecord& r) {
    std::string fd = "?";
    auto it = e.log.files.find(r.file_id);
    if (it != e.log.files.end() && it->second.count("fd")) fd = it->second.at("fd");
    const std::string file = file_name(e, r.file_id);
    json::Value fields =
        json::Value::object().set("file", file).set("iovfd", r.file_id).set("fd", number_or_null(fd));
    if (several) {
      fields.set("experiment", x);
      return IoKey{fmt::format("{} (IOVFD={}, FD={}, EXP={})", file, r.file_id, fd, x), std::move(fields)};
    }
    return IoKey{fmt::format("{} (IOVFD={}, FD={})", file, r.file_id, fd), std::move(fields)};
  });
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

IoStat io_stat(model::Profile& p) {
  IoStat st;
  for (const auto& e : p.experiments())
    for (const auto& r : e.io) {
      if (r.op == format::kIoRead) st.reads.add(r, true);
      else if (r.op == format::kIoWrite) st.writes.add(r, true);
      else st.others.add(r, false);
    }
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

IoStacks io_stacks(model::Profile& p, const NameOptions& names) {
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

std::string render_io_activity(model::Profile& p) {
  return render_grouped(by_file(p), "I/O activity by file, sorted by I/O time", "File");
}

std::string render_io_detail(model::Profile& p) {
  return render_grouped(by_descriptor(p), "I/O activity by opened file (virtual file descriptor), sorted by I/O time",
                        "File");
}

json::Value io_activity_json(model::Profile& p) { return grouped_json(by_file(p)); }
json::Value io_detail_json(model::Profile& p) { return grouped_json(by_descriptor(p)); }

std::string render_io_callstacks(model::Profile& p, size_t limit, const NameOptions& names) {
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

json::Value io_callstacks_json(model::Profile& p, size_t limit, const NameOptions& names) {
  IoStacks st = io_stacks(p, names);
  json::Value stacks = json::Value::array();
  size_t n = limit ? std::min(limit, st.groups.size()) : st.groups.size();
  for (size_t i = 0; i < n; ++i)
    stacks.push(io_sums_json(st.groups[i].values, json::Value::object().set("rank", i + 1))
                    .set("stack", stack_json(st.groups[i].frames)));
  return json::Value::object().set("total", io_sums_json(st.total)).set("stacks", std::move(stacks));
}

std::string render_io_stat(model::Profile& p) {
  IoStat st = io_stat(p);
  return st.writes.render("Write", "write", "Write Calls") + st.reads.render("Read", "read", "Read Calls") +
         st.others.render("Other I/O", "other call", "Calls");
}

json::Value io_stat_json(model::Profile& p) {
  IoStat st = io_stat(p);
  return json::Value::object()
      .set("write", st.writes.to_json())
      .set("read", st.reads.to_json())
      .set("other", st.others.to_json());
}

}  // namespace erkit::views
