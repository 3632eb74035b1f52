// Parsing of the experiment's text lines (log, map): "<tstamp> <event> key=value key="q v"".
// The writer side is collector/text_line.h (async-signal-safe) and collect's log writer.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace erkit::common {

struct TextEvent {
  uint64_t tstamp_ns = 0;
  std::string name;
  std::map<std::string, std::string> fields;
  std::string get(const std::string& key, const std::string& dflt = {}) const;
  std::optional<int64_t> get_int(const std::string& key) const;  // decimal or 0x hex
};

// nullopt for a malformed line.
std::optional<TextEvent> parse_text_event(std::string_view line);
// Quotes a value for a text line (the inverse of the parser's unquoting).
std::string quote_value(std::string_view v);

// Builds a text line "<tstamp_ns> <event> key=value ..." for host-side writers (collect,
// er_kernel), the counterpart of parse_text_event; the collector's own is collector/text_line.h.
// Event and key names are format/log_keys.h's.
class EventLine {
 public:
  EventLine(uint64_t tstamp_ns, std::string_view event);
  EventLine& kv(std::string_view key, std::string_view value);         // value as it is
  EventLine& kv(std::string_view key, const char* value) { return kv(key, std::string_view(value)); }
  EventLine& kv(std::string_view key, const std::string& value) { return kv(key, std::string_view(value)); }
  EventLine& kv(std::string_view key, int64_t value);                   // decimal
  EventLine& kv(std::string_view key, int value) { return kv(key, int64_t(value)); }
  EventLine& kv(std::string_view key, long long value) { return kv(key, int64_t(value)); }
  EventLine& kv(std::string_view key, uint64_t value);
  EventLine& kv(std::string_view key, unsigned value) { return kv(key, uint64_t(value)); }
  EventLine& kv(std::string_view key, unsigned long long value) { return kv(key, uint64_t(value)); }
  EventLine& kv_quoted(std::string_view key, std::string_view value);  // quote_value(value)
  const std::string& str() const { return line_; }

 private:
  std::string line_;
};

}  // namespace erkit::common
