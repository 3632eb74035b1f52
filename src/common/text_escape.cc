#include "common/text_escape.h"

#include <cstdlib>

namespace erkit::common {

std::string TextEvent::get(const std::string& key, const std::string& dflt) const {
  auto it = fields.find(key);
  return it == fields.end() ? dflt : it->second;
}

std::optional<int64_t> TextEvent::get_int(const std::string& key) const {
  auto it = fields.find(key);
  if (it == fields.end() || it->second.empty()) return std::nullopt;
  const std::string& v = it->second;
  char* end = nullptr;
  int64_t r;
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
    r = int64_t(std::strtoull(v.c_str() + 2, &end, 16));
  else
    r = std::strtoll(v.c_str(), &end, 10);
  if (!end || *end) return std::nullopt;
  return r;
}

std::optional<TextEvent> parse_text_event(std::string_view line) {
  TextEvent ev;
  size_t i = 0;
  auto skip_spaces = [&] {
    while (i < line.size() && line[i] == ' ') ++i;
  };
  size_t start = i;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
  if (i == start || i >= line.size() || line[i] != ' ') return std::nullopt;
  ev.tstamp_ns = std::strtoull(std::string(line.substr(start, i - start)).c_str(), nullptr, 10);
  skip_spaces();
  start = i;
  while (i < line.size() && line[i] != ' ') ++i;
  ev.name = std::string(line.substr(start, i - start));
  if (ev.name.empty()) return std::nullopt;
  while (true) {
    skip_spaces();
    if (i >= line.size()) break;
    start = i;
    while (i < line.size() && line[i] != '=' && line[i] != ' ') ++i;
    if (i >= line.size() || line[i] != '=') return std::nullopt;
    std::string key(line.substr(start, i - start));
    ++i;
    std::string value;
    if (i < line.size() && line[i] == '"') {
      ++i;
      bool closed = false;
      while (i < line.size()) {
        char c = line[i++];
        if (c == '"') {
          closed = true;
          break;
        }
        if (c == '\\' && i < line.size()) {
          char e = line[i++];
          value.push_back(e == 'n' ? '\n' : e);
        } else {
          value.push_back(c);
        }
      }
      if (!closed) return std::nullopt;
    } else {
      start = i;
      while (i < line.size() && line[i] != ' ') ++i;
      value = std::string(line.substr(start, i - start));
    }
    ev.fields[key] = std::move(value);
  }
  return ev;
}

std::string quote_value(std::string_view v) {
  std::string out = "\"";
  for (char c : v) {
    if (c == '\\' || c == '"') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

EventLine::EventLine(uint64_t tstamp_ns, std::string_view event) : line_(std::to_string(tstamp_ns)) {
  line_ += ' ';
  line_ += event;
}

EventLine& EventLine::kv(std::string_view key, std::string_view value) {
  line_ += ' ';
  line_ += key;
  line_ += '=';
  line_ += value;
  return *this;
}

EventLine& EventLine::kv(std::string_view key, int64_t value) { return kv(key, std::string_view(std::to_string(value))); }
EventLine& EventLine::kv(std::string_view key, uint64_t value) { return kv(key, std::string_view(std::to_string(value))); }
EventLine& EventLine::kv_quoted(std::string_view key, std::string_view value) {
  return kv(key, std::string_view(quote_value(value)));
}

}  // namespace erkit::common
