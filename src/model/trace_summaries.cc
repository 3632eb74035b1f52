#include "model/trace_summaries.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "model/heap_leaks.h"
#include "format/log_keys.h"

namespace erkit::model {

SyncSummary sync_by_object(const Profile& p) {
  SyncSummary st;
  struct Acc {
    uint64_t wait_ns = 0, max_ns = 0;
    int64_t waits = 0;
    std::set<uint32_t> tids;
  };
  // Key: experiment, kind, object address.
  std::map<std::tuple<uint32_t, uint32_t, uint64_t>, Acc> by;
  for (uint32_t x = 0; x < p.experiments().size(); ++x) {
    const auto& e = p.experiments()[x];
    auto it = e.log.settings.find(format::log_setting::kSyncThreshold);
    if (it != e.log.settings.end()) {
      auto get = [&](const char* k) {
        auto f = it->second.find(k);
        return f == it->second.end() ? std::string("?") : f->second;
      };
      SyncThreshold t{x + 1, get(format::log_key::kNs), get(format::log_key::kMode), ""};
      if (t.mode == format::log_value::kCalibrated) t.uncontended_mean_ns = get(format::log_key::kUncontendedMeanNs);
      st.thresholds.push_back(std::move(t));
    }
    for (const auto& s : e.sync) {
      if (!p.selected(x, s.tid, -1, s.tstamp_ns, s.stack_id)) continue;
      auto& o = by[{x + 1, s.op, s.object}];
      o.wait_ns += s.wait_ns;
      o.max_ns = std::max(o.max_ns, s.wait_ns);
      o.waits++;
      o.tids.insert(s.tid);
      st.total_ns += s.wait_ns;
      st.total_waits++;
    }
  }
  for (auto& [key, o] : by) {
    auto [exp, op, object] = key;
    st.rows.push_back({exp, op, object, o.wait_ns, o.max_ns, o.waits, o.tids.size()});
  }
  std::stable_sort(st.rows.begin(), st.rows.end(), [](const auto& a, const auto& b) { return a.wait_ns > b.wait_ns; });
  return st;
}

void IoTotals::add(const format::IoEventRecord& r) {
  time_ns += r.duration_ns;
  int64_t b = r.bytes > 0 ? r.bytes : 0;
  if (r.op == format::kIoRead) reads++, read_bytes += b;
  else if (r.op == format::kIoWrite) writes++, write_bytes += b;
  else others++;
  if (r.bytes < 0) errors++;
}

std::string io_file_name(const Profile& p, uint32_t exp, uint32_t id) {
  const auto& e = p.experiments()[exp];
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

void for_each_selected_io(const Profile& p, const std::function<void(uint32_t, const format::IoEventRecord&)>& fn) {
  for (uint32_t x = 0; x < p.experiments().size(); ++x)
    for (const auto& r : p.experiments()[x].io)
      if (p.selected(x, r.tid, -1, r.tstamp_ns, r.stack_id)) fn(x, r);
}

void for_each_heap_record(const Profile& p,
                          const std::function<void(uint32_t, const format::HeapEvent&, bool, bool)>& fn) {
  for (uint32_t x = 0; x < p.experiments().size(); ++x) {
    const auto& heap = p.experiments()[x].heap;
    std::vector<bool> leaked = leaked_allocations(heap);
    for (size_t i = 0; i < heap.size(); ++i) {
      const auto& h = heap[i];
      bool sel = heap_allocates(h) && p.selected(x, h.tid, -1, h.tstamp_ns, h.stack_id);
      fn(x, h, sel, leaked[i]);
    }
  }
}

namespace {

template <typename Key>
IoGroups group_io(const Profile& p, Key key) {
  std::map<std::string, IoGroupRow> by;
  IoGroups g;
  g.several_experiments = p.experiments().size() > 1;
  for_each_selected_io(p, [&](uint32_t x, const format::IoEventRecord& r) {
    IoGroupRow k = key(x, r);
    auto it = by.find(k.name);
    if (it == by.end()) it = by.emplace(k.name, std::move(k)).first;
    it->second.totals.add(r);
    g.total.add(r);
  });
  for (auto& [name, row] : by) g.rows.push_back(std::move(row));
  std::stable_sort(g.rows.begin(), g.rows.end(), [](const auto& a, const auto& b) {
    if (a.totals.time_ns != b.totals.time_ns) return a.totals.time_ns > b.totals.time_ns;
    return a.name < b.name;
  });
  return g;
}

}  // namespace

IoGroups io_by_file(const Profile& p) {
  return group_io(p, [&p](uint32_t x, const format::IoEventRecord& r) {
    IoGroupRow row;
    row.name = io_file_name(p, x, r.file_id);
    return row;
  });
}

IoGroups io_by_descriptor(const Profile& p) {
  const bool several = p.experiments().size() > 1;
  return group_io(p, [&p, several](uint32_t x, const format::IoEventRecord& r) {
    const auto& e = p.experiments()[x];
    IoGroupRow row;
    row.fd = "?";
    auto it = e.log.files.find(r.file_id);
    if (it != e.log.files.end() && it->second.count("fd")) row.fd = it->second.at("fd");
    row.file = io_file_name(p, x, r.file_id);
    row.iovfd = r.file_id;
    row.experiment = x + 1;
    row.name = several ? fmt::format("{} (IOVFD={}, FD={}, EXP={})", row.file, r.file_id, row.fd, x + 1)
                       : fmt::format("{} (IOVFD={}, FD={})", row.file, r.file_id, row.fd);
    return row;
  });
}

}  // namespace erkit::model
