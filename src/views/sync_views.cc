// Sync-wait report per synchronisation object (aggregated by model::sync_by_object).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "format/log_keys.h"
#include "model/trace_summaries.h"
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

// The row label: the object and its kind, and the experiment where several are loaded.
std::string object_name(const model::SyncObjectRow& r, bool several) {
  std::string name = fmt::format("0x{:x} {}", r.object, sync_kind(r.op));
  if (r.op == format::kSyncJoin) name = fmt::format("thread 0x{:x} (join)", r.object);
  if (several) name += fmt::format(" [experiment {}]", r.experiment);
  return name;
}

}  // namespace

std::string render_sync_stat(const model::Profile& p, size_t limit) {
  model::SyncSummary st = model::sync_by_object(p);
  const bool several = p.experiments().size() > 1;
  std::string thresholds;
  for (const auto& t : st.thresholds) {
    std::string line = fmt::format("  Experiment {}: threshold {} ns ({})", t.experiment, t.ns, t.mode);
    if (t.mode == format::log_value::kCalibrated) line += fmt::format(", uncontended lock call {} ns", t.uncontended_mean_ns);
    thresholds += line + "\n";
  }
  PlainTable t({{"Wait Time", "Waits", "Max Wait", "Threads", "Object"}, {"sec.", "", "sec.", "", ""}});
  t.add({seconds3(st.total_ns), fmt::format("{}", st.total_waits), "", "", "<Total>"});
  size_t n = limit ? std::min(limit, st.rows.size()) : st.rows.size();
  for (size_t i = 0; i < n; ++i) {
    const auto& r = st.rows[i];
    t.add({seconds3(r.wait_ns), fmt::format("{}", r.waits), seconds3(r.max_ns), fmt::format("{}", r.threads),
           object_name(r, several)});
  }
  std::string out = "Sync waits by object, sorted by wait time\n";
  if (!thresholds.empty()) out += "Recorded waits longer than:\n" + thresholds;
  return out + "\n" + t.render() + "\n";
}

json::Value sync_stat_json(const model::Profile& p, size_t limit) {
  model::SyncSummary st = model::sync_by_object(p);
  const bool several = p.experiments().size() > 1;
  json::Value thresholds = json::Value::array(), objects = json::Value::array();
  for (const auto& t : st.thresholds) {
    json::Value v = json::Value::object()
                        .set("experiment", t.experiment)
                        .set("threshold_ns", number_or_null(t.ns))
                        .set("mode", t.mode);
    if (t.mode == format::log_value::kCalibrated) v.set("uncontended_mean_ns", number_or_null(t.uncontended_mean_ns));
    thresholds.push(std::move(v));
  }
  size_t n = limit ? std::min(limit, st.rows.size()) : st.rows.size();
  for (size_t i = 0; i < n; ++i) {
    const auto& r = st.rows[i];
    objects.push(json::Value::object()
                     .set("name", object_name(r, several))
                     .set("experiment", r.experiment)
                     .set("kind", sync_kind(r.op))
                     .set("object", r.object)
                     .set("wait_ns", r.wait_ns)
                     .set("waits", r.waits)
                     .set("max_wait_ns", r.max_ns)
                     .set("threads", r.threads));
  }
  return json::Value::object()
      .set("thresholds", std::move(thresholds))
      .set("total", json::Value::object().set("wait_ns", st.total_ns).set("waits", st.total_waits))
      .set("objects", std::move(objects));
}

}  // namespace erkit::views
