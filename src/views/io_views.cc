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

template <typename Key>
std::string render_grouped(model::Profile& p, const char* title, const char* what, Key key) {
  std::map<std::string, IoTotals> by;
  IoTotals total;
  uint32_t x = 0;
  for (const auto& e : p.experiments()) {
    ++x;
    for (const auto& r : e.io) {
      by[key(x, e, r)].add(r);
      total.add(r);
    }
  }
  std::vector<std::pair<std::string, IoTotals>> rows(by.begin(), by.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    if (a.second.time_ns != b.second.time_ns) return a.second.time_ns > b.second.time_ns;
    return a.first < b.first;
  });
  PlainTable t = io_table(what);
  t.add(total.cells("<Total>"));
  for (const auto& [name, tot] : rows) t.add(tot.cells(name));
  return fmt::format("{}\n\n{}\n", title, t.render());
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
};

}  // namespace

std::string render_io_activity(model::Profile& p) {
  return render_grouped(p, "I/O activity by file, sorted by I/O time", "File",
                        [](uint32_t, const reader::Experiment& e, const format::IoEventRecord& r) {
                          return file_name(e, r.file_id);
                        });
}

std::string render_io_detail(model::Profile& p) {
  bool several = p.experiments().size() > 1;
  return render_grouped(p, "I/O activity by opened file (virtual file descriptor), sorted by I/O time", "File",
                        [several](uint32_t x, const reader::Experiment& e, const format::IoEventRecord& r) {
                          std::string fd = "?";
                          auto it = e.log.files.find(r.file_id);
                          if (it != e.log.files.end() && it->second.count("fd")) fd = it->second.at("fd");
                          if (several)
                            return fmt::format("{} (IOVFD={}, FD={}, EXP={})", file_name(e, r.file_id), r.file_id,
                                               fd, x);
                          return fmt::format("{} (IOVFD={}, FD={})", file_name(e, r.file_id), r.file_id, fd);
                        });
}

std::string render_io_callstacks(model::Profile& p, size_t limit, const NameOptions& names) {
  using namespace model;
  std::vector<uint32_t> ms = {kIoTime, kIoReadBytes, kIoReadCount, kIoWriteBytes, kIoWriteCount, kIoOtherCount};
  auto groups = group_by_stack(p, names, ms);
  std::stable_sort(groups.begin(), groups.end(),
                   [](const StackGroup& a, const StackGroup& b) { return a.values[0] > b.values[0]; });
  std::vector<int64_t> tot(ms.size(), 0);
  for (const auto& g : groups)
    for (size_t i = 0; i < ms.size(); ++i) tot[i] += g.values[i];
  auto summary = [](const std::vector<int64_t>& v) {
    return fmt::format("I/O Time = {} (secs.), Read Bytes = {}, Reads = {}, Write Bytes = {}, Writes = {}, "
                       "Other I/O = {}",
                       seconds6(uint64_t(v[0])), v[1], v[2], v[3], v[4], v[5]);
  };
  std::string out = fmt::format("I/O call stacks, sorted by I/O time: {} distinct\n\n<Total>\n{}\n\n", groups.size(),
                                summary(tot));
  size_t n = limit ? std::min(limit, groups.size()) : groups.size();
  for (size_t i = 0; i < n; ++i) {
    out += fmt::format("Stack #{}, {}\n", i + 1, summary(groups[i].values));
    for (const auto& line : groups[i].frames) out += "    " + line + "\n";
    out += "\n";
  }
  return out;
}

std::string render_io_stat(model::Profile& p) {
  OpStats reads, writes, others;
  for (const auto& e : p.experiments())
    for (const auto& r : e.io) {
      if (r.op == format::kIoRead) reads.add(r, true);
      else if (r.op == format::kIoWrite) writes.add(r, true);
      else others.add(r, false);
    }
  return writes.render("Write", "write", "Write Calls") + reads.render("Read", "read", "Read Calls") +
         others.render("Other I/O", "other call", "Calls");
}

}  // namespace erkit::views
