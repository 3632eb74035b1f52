// Sync-wait report per synchronisation object.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "views/trace_format.h"
#include "views/trace_views.h"

namespace erkit::views {
namespace {

const char* sync_kind(uint32_t op) {
  switch (op) {
    case format::kSyncMutex: return "mutex";
    case format::kSyncCondWait: return "condition variable";
    case format::kSyncRwlockRead: return "rwlock (read)";
    case format::kSyncRwlockWrite: return "rwlock (write)";
    case format::kSyncSpin: return "spin lock";
    case format::kSyncBarrier: return "barrier";
    case format::kSyncJoin: return "thread (join)";
    case format::kSyncSemWait: return "semaphore";
    default: return "other";
  }
}

struct ObjectWaits {
  uint64_t wait_ns = 0, max_ns = 0;
  int64_t waits = 0;
  std::map<uint32_t, int64_t> tids;  // waiting threads
};

struct Threshold {
  uint32_t experiment;
  std::string ns, mode, uncontended_ns;
};

struct ObjectRow {
  uint32_t experiment, op;
  uint64_t object;
  ObjectWaits waits;
  std::string name;
};

struct SyncStat {
  std::vector<Threshold> thresholds;
  uint64_t total_ns = 0;
  int64_t total_waits = 0;
  std::vector<ObjectRow> rows;  // most wait time first
};

SyncStat sync_stat(model::Profile& p) {
  SyncStat st;
  // Key: experiment, kind, object address.
  std::map<std::tuple<uint32_t, uint32_t, uint64_t>, ObjectWaits> by;
  uint32_t x = 0;
  for (const auto& e : p.experiments()) {
    ++x;
    auto it = e.log.settings.find("sync_threshold");
    if (it != e.log.settings.end()) {
      auto get = [&](const char* k) {
        auto f = it->second.find(k);
        return f == it->second.end() ? std::string("?") : f->second;
      };
      Threshold t{x, get("ns"), get("mode"), ""};
      if (t.mode == "calibrated") t.uncontended_ns = get("uncontended_mean_ns");
      st.thresholds.push_back(std::move(t));
    }
    for (const auto& s : e.sync) {
      auto& o = by[{x, s.op, s.object}];
      o.wait_ns += s.wait_ns;
      o.max_ns = std::max(o.max_ns, s.wait_ns);
      o.waits++;
      o.tids[s.tid]++;
      st.total_ns += s.wait_ns;
      st.total_waits++;
    }
  }
  const bool several = p.experiments().size() > 1;
  for (auto& [key, o] : by) {
    auto [exp, op, object] = key;
    std::string name = fmt::format("0x{:x} {}", object, sync_kind(op));
    if (op == format::kSyncJoin) name = fmt::format("thread 0x{:x} (join)", object);
    if (several) name += fmt::format(" [experiment {}]", exp);
    st.rows.push_back({exp, op, object, std::move(o), std::move(name)});
  }
  std::stable_sort(st.rows.begin(), st.rows.end(),
                   [](const auto& a, const auto& b) { return a.waits.wait_ns > b.waits.wait_ns; });
  return st;
}

}  // namespace

std::string render_sync_stat(model::Profile& p, size_t limit) {
  SyncStat st = sync_stat(p);
  std::string thresholds;
  for (const auto& t : st.thresholds) {
    std::string line = fmt::format("  Experiment {}: threshold {} ns ({})", t.experiment, t.ns, t.mode);
    if (t.mode == "calibrated") line += fmt::format(", uncontended lock call {} ns", t.uncontended_ns);
    thresholds += line + "\n";
  }
  PlainTable t({{"Wait Time", "Waits", "Max Wait", "Threads", "Object"}, {"sec.", "", "sec.", "", ""}});
  t.add({seconds3(st.total_ns), fmt::format("{}", st.total_waits), "", "", "<Total>"});
  size_t n = limit ? std::min(limit, st.rows.size()) : st.rows.size();
  for (size_t i = 0; i < n; ++i) {
    const auto& r = st.rows[i];
    t.add({seconds3(r.waits.wait_ns), fmt::format("{}", r.waits.waits), seconds3(r.waits.max_ns),
           fmt::format("{}", r.waits.tids.size()), r.name});
  }
  std::string out = "Sync waits by object, sorted by wait time\n";
  if (!thresholds.empty()) out += "Recorded waits longer than:\n" + thresholds;
  return out + "\n" + t.render() + "\n";
}

json::Value sync_stat_json(model::Profile& p, size_t limit) {
  SyncStat st = sync_stat(p);
  json::Value thresholds = json::Value::array(), objects = json::Value::array();
  for (const auto& t : st.thresholds) {
    json::Value v = json::Value::object()
                        .set("experiment", t.experiment)
                        .set("threshold_ns", number_or_null(t.ns))
                        .set("mode", t.mode);
    if (t.mode == "calibrated") v.set("uncontended_mean_ns", number_or_null(t.uncontended_ns));
    thresholds.push(std::move(v));
  }
  size_t n = limit ? std::min(limit, st.rows.size()) : st.rows.size();
  for (size_t i = 0; i < n; ++i) {
    const auto& r = st.rows[i];
    objects.push(json::Value::object()
                     .set("name", r.name)
                     .set("experiment", r.experiment)
                     .set("kind", sync_kind(r.op))
                     .set("object", r.object)
                     .set("wait_ns", r.waits.wait_ns)
                     .set("waits", r.waits.waits)
                     .set("max_wait_ns", r.waits.max_ns)
                     .set("threads", r.waits.tids.size()));
  }
  return json::Value::object()
      .set("thresholds", std::move(thresholds))
      .set("total", json::Value::object().set("wait_ns", st.total_ns).set("waits", st.total_waits))
      .set("objects", std::move(objects));
}

}  // namespace erkit::views
