#include "exporters/exporters.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace erkit::exporters {

std::optional<Format> parse_format(const std::string& name) {
  if (name == "pprof" || name == "proto") return Format::Pprof;
  if (name == "chrome" || name == "trace" || name == "perfetto") return Format::Chrome;
  if (name == "speedscope") return Format::Speedscope;
  if (name == "folded" || name == "collapsed") return Format::Folded;
  if (name == "callgrind") return Format::Callgrind;
  return std::nullopt;
}

const char* format_name(Format f) {
  switch (f) {
    case Format::Pprof: return "pprof";
    case Format::Chrome: return "chrome";
    case Format::Speedscope: return "speedscope";
    case Format::Folded: return "folded";
    case Format::Callgrind: return "callgrind";
  }
  return "";
}

std::string default_output_name(Format f, const std::string& stem) {
  switch (f) {
    case Format::Pprof: return stem + ".pb.gz";
    case Format::Chrome: return stem + ".trace.json";
    case Format::Speedscope: return stem + ".speedscope.json";
    case Format::Folded: return stem + ".folded";
    case Format::Callgrind: return "callgrind.out." + stem;
  }
  return stem;
}

std::optional<std::vector<uint32_t>> select_metrics(const model::Profile& p, const std::string& list, std::string* error) {
  std::vector<uint32_t> out;
  if (list.empty()) {
    out = p.available_metrics();
    // A cycle-type counter's time form is er_print's view of the counter ('.'): the exports
    // carry the counter once, as its count (issue 19).
    std::erase_if(out, [](uint32_t m) { return model::metric_def(m).cycles_time; });
    // The user CPU time first: it is er_print's default metric and the formats' default view.
    auto it = std::find(out.begin(), out.end(), uint32_t(model::kUser));
    if (it != out.end()) std::rotate(out.begin(), it, it + 1);
    if (out.empty()) *error = "the experiments have no metric data";
    return out.empty() ? std::nullopt : std::optional(out);
  }
  std::istringstream in(list);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (name.empty()) continue;
    uint32_t m = model::metric_index(name);
    if (m >= model::kMetricCount) {
      std::string known;
      for (const auto& d : model::metric_defs())
        if (!d.cycles_time && !d.name.empty()) known += (known.empty() ? "" : ", ") + d.name;
      *error = fmt::format("unknown metric '{}' (known: {})", name, known);
      return std::nullopt;
    }
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  }
  if (out.empty()) {
    *error = "empty metric list";
    return std::nullopt;
  }
  return out;
}

std::string write_export(const model::Profile& p, Format f, const Options& o, std::string* error) {
  switch (f) {
    case Format::Pprof: return write_pprof(p, o, error);
    case Format::Chrome: return write_chrome_trace(p, o, error);
    case Format::Speedscope: return write_speedscope(p, o, error);
    case Format::Folded: return write_folded(p, o, error);
    case Format::Callgrind: return write_callgrind(p, o, error);
  }
  *error = "unknown format";
  return "";
}

}  // namespace erkit::exporters
