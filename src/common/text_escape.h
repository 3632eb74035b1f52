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

}  // namespace erkit::common
