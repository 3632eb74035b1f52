// A small JSON reader for GCC's optimisation records: values as a tree, no streaming, no
// schema. Numbers are kept as doubles; strings are UTF-8 with escapes decoded.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace erkit::commentary {

struct JsonValue {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> array;
  std::map<std::string, JsonValue> object;

  const JsonValue* get(const std::string& key) const;  // null unless an object holding key
  std::string str(const std::string& key) const;       // "" unless key holds a string
  double num(const std::string& key) const;            // 0 unless key holds a number
};

// False with *error (offset and reason) on malformed input.
bool parse_json(const std::string& text, JsonValue* out, std::string* error);

}  // namespace erkit::commentary
