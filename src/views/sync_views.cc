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

}  // namespace

std::string render_sync_stat(model::Profile& p, size_t limit) {
  // Key: experiment, kind, object address.
  std::map<std::tuple<uint32_t, uint32_t, uint64_t>, ObjectWaits> by;
  std::string thresholds;
  uint64_t total_ns = 0;
  int64_t total_waits = 0;
  uint32_t x = 0;
  for (const auto& e : p.experiments()) {
    ++x;
    auto it = e.log.settings.find("sync_threshold");
    if (it != e.log.settings.end()) {
      auto get = [&](const char* k) {
        auto f = it->second.find(k);
        return f == it->second.end() ? std::string("?") : f->second;
      };
      std::string mode = get("mode");
      std::string ns = get("ns");
      std::string line = fmt::format("  Experiment {}: threshold {} ns ({})", x, ns, mode);
      if (mode == "calibrated") line += fmt::format(", uncontended lock call {} ns", get("uncontended_mean_ns"));
      thresholds += line + "\n";
    }
    for (const auto& s : e.sync) {
      auto& o = by[{x, s.op, s.object}];
      o.wait_ns += s.wait_ns;
      o.max_ns = std::max(o.max_ns, s.wait_ns);
      o.waits++;
      o.tids[s.tid]++;
      total_ns += s.wait_ns;
      total_waits++;
    }
  }
  std::vector<std::pair<std::tuple<uint32_t, uint32_t, uint64_t>, ObjectWaits>> rows(by.begin(), by.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second.wait_ns > b.second.wait_ns; });
  bool several = p.experiments().size() > 1;
  PlainTable t({{"Wait Time", "Waits", "Max Wait", "Threads", "Object"}, {"sec.", "", "sec.", "", ""}});
  t.add({seconds3(total_ns), fmt::format("{}", total_waits), "", "", "<Total>"});
  size_t n = limit ? std::min(limit, rows.size()) : rows.size();
  for (size_t i = 0; i < n; ++i) {
    const auto& [key, o] = rows[i];
    auto [exp, op, object] = key;
    std::string name = fmt::format("0x{:x} {}", object, sync_kind(op));
    if (op == format::kSyncJoin) name = fmt::format("thread 0x{:x} (join)", object);
    if (several) name += fmt::format(" [experiment {}]", exp);
    t.add({seconds3(o.wait_ns), fmt::format("{}", o.waits), seconds3(o.max_ns), fmt::format("{}", o.tids.size()),
           name});
  }
  std::string out = "Sync waits by object, sorted by wait time\n";
  if (!thresholds.empty()) out += "Recorded waits longer than:\n" + thresholds;
  return out + "\n" + t.render() + "\n";
}

}  // namespace erkit::views
