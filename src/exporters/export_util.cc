#include "exporters/export_util.h"

#include <fmt/format.h>

namespace erkit::exporters {

const char* unit_word(uint32_t metric) {
  switch (model::metric_def(metric).unit) {
    case model::MetricUnit::Nanoseconds: return "nanoseconds";
    case model::MetricUnit::Bytes: return "bytes";
    case model::MetricUnit::Count: return "count";
  }
  return "count";
}

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0.
size_t utf8_length(std::string_view s, size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
  return n;
}

}  // namespace

void append_json_string(std::string* out, std::string_view s) {
  out->push_back('"');
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    switch (c) {
      case '"': *out += "\\\""; ++i; continue;
      case '\\': *out += "\\\\"; ++i; continue;
      case '\n': *out += "\\n"; ++i; continue;
      case '\t': *out += "\\t"; ++i; continue;
      case '\r': *out += "\\r"; ++i; continue;
      default: break;
    }
    if (static_cast<unsigned char>(c) < 0x20) {
      *out += fmt::format("\\u{:04x}", unsigned(static_cast<unsigned char>(c)));
      ++i;
      continue;
    }
    size_t n = utf8_length(s, i);
    if (n == 0) {
      *out += "\\ufffd";
      ++i;
    } else {
      out->append(s.substr(i, n));
      i += n;
    }
  }
  out->push_back('"');
}

std::string json_string(std::string_view s) {
  std::string out;
  append_json_string(&out, s);
  return out;
}

void for_each_resolved_event(
    const model::Profile& p,
    const std::function<void(uint32_t, const model::EventRecord&, const model::ResolvedStack&)>& fn) {
  const auto& exps = p.experiments();
  for (uint32_t x = 0; x < exps.size(); ++x) {
    model::for_each_event(exps[x], [&](const model::EventRecord& ev) {
      // add_experiment resolved every event's stack; a miss would be a model bug, so skip it.
      if (const model::ResolvedStack* rs = p.resolver().find(x, ev.stack_id)) fn(x, ev, *rs);
    });
  }
}

int64_t process_id(const model::Profile& p, uint32_t exp) {
  int64_t pid = p.experiments()[exp].log.pid;
  return pid > 0 ? pid : int64_t(exp) + 1;
}

}  // namespace erkit::exporters
