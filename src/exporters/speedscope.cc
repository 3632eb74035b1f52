// speedscope's file format (https://www.speedscope.app/file-format-schema.json): frames shared
// by all profiles, one "sampled" profile per thread of each experiment with its events in time
// order (speedscope's "Time Order" view), weighted by the first selected metric.
#include <fmt/format.h>

#include <map>

#include "common/version.h"
#include "exporters/export_util.h"
#include "exporters/exporters.h"

namespace erkit::exporters {

std::string write_speedscope(const model::Profile& p, const Options& o, std::string* error) {
  if (o.metrics.empty()) {
    *error = "no metric to export";
    return "";
  }
  uint32_t metric = o.metrics.front();
  const auto& ft = p.functions();
  std::vector<int64_t> frame_index(ft.size(), -1);
  std::string frames;
  int64_t nframes = 0;
  auto frame = [&](const model::FrameRef& fr) {
    int64_t& idx = frame_index[fr.func];
    if (idx >= 0) return idx;
    idx = nframes++;
    const model::FunctionEntry& fe = ft.at(fr.func);
    std::string file = fe.source_file;
    if (file.empty()) file = p.resolver().files()[p.resolver().lines()[fr.line].file];
    frames += fmt::format("{}{{\"name\":{}", idx ? ",\n" : "", json_string(views::function_display_name(ft, fr.func, o.names)));
    if (!file.empty()) frames += ",\"file\":" + json_string(file);
    frames += "}";
    return idx;
  };
  struct Thread {
    std::string samples, weights;
    int64_t total = 0;
    uint64_t first = UINT64_MAX, last = 0;
  };
  std::map<std::pair<uint32_t, uint32_t>, Thread> threads;
  for_each_resolved_event(p, [&](uint32_t x, const model::EventRecord& ev, const model::ResolvedStack& rs) {
    int64_t w = ev.values[metric];
    if (w == 0) return;
    Thread& t = threads[{x, ev.tid}];
    std::string s = "[";
    for (size_t k = rs.frames.size(); k-- > 0;) s += fmt::format("{}{}", frame(rs.frames[k]), k ? "," : "");
    t.samples += (t.samples.empty() ? "" : ",") + s + "]";
    t.weights += fmt::format("{}{}", t.weights.empty() ? "" : ",", w);
    t.total += w;
    t.first = std::min(t.first, ev.tstamp_ns);
    t.last = std::max(t.last, ev.tstamp_ns);
  });
  const char* unit = model::metric_def(metric).unit == model::MetricUnit::Nanoseconds ? "nanoseconds"
                     : model::metric_def(metric).unit == model::MetricUnit::Bytes     ? "bytes"
                                                                                      : "none";
  std::string profiles;
  for (const auto& [key, t] : threads) {
    const auto& e = p.experiments()[key.first];
    std::string title = fmt::format("{} thread {} ({})", e.name, key.second, model::metric_def(metric).display);
    profiles += fmt::format(
        "{}{{\"type\":\"sampled\",\"name\":{},\"unit\":\"{}\",\"startValue\":0,\"endValue\":{},"
        "\"samples\":[{}],\"weights\":[{}]}}",
        profiles.empty() ? "" : ",\n", json_string(title), unit, t.total, t.samples, t.weights);
  }
  std::string name = p.experiments().empty() ? "erkit" : p.experiments().front().name;
  return fmt::format(
      "{{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"erkit {}\","
      "\"name\":{},\"activeProfileIndex\":0,\n\"shared\":{{\"frames\":[\n{}\n]}},\n\"profiles\":[\n{}\n]}}\n",
      ERKIT_VERSION, json_string(name), frames, profiles);
}

}  // namespace erkit::exporters
