#include "commentary/json_lite.h"

#include <fmt/format.h>

#include <cstdlib>

namespace erkit::commentary {

const JsonValue* JsonValue::get(const std::string& key) const {
  if (kind != Kind::Object) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &it->second;
}

std::string JsonValue::str(const std::string& key) const {
  const JsonValue* v = get(key);
  return v && v->kind == Kind::String ? v->string : std::string();
}

double JsonValue::num(const std::string& key) const {
  const JsonValue* v = get(key);
  return v && v->kind == Kind::Number ? v->number : 0;
}

namespace {

class Parser {
 public:
  explicit Parser(const std::string& t) : t_(t) {}
  bool parse(JsonValue* v, std::string* error) {
    bool ok = value(v, 0);
    skip_ws();
    if (ok && p_ != t_.size()) ok = fail("trailing characters");
    if (!ok) *error = fmt::format("JSON error at offset {}: {}", p_, err_);
    return ok;
  }

 private:
  bool fail(const char* m) {
    if (err_.empty()) err_ = m;
    return false;
  }
  void skip_ws() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\n' || t_[p_] == '\r' || t_[p_] == '\t')) ++p_;
  }
  bool literal(const char* w) {
    size_t n = std::char_traits<char>::length(w);
    if (t_.compare(p_, n, w) != 0) return fail("bad literal");
    p_ += n;
    return true;
  }
  static void put_utf8(std::string& s, unsigned cp) {
    if (cp < 0x80) {
      s += char(cp);
    } else if (cp < 0x800) {
      s += char(0xc0 | (cp >> 6)), s += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      s += char(0xe0 | (cp >> 12)), s += char(0x80 | ((cp >> 6) & 0x3f)), s += char(0x80 | (cp & 0x3f));
    } else {
      s += char(0xf0 | (cp >> 18)), s += char(0x80 | ((cp >> 12) & 0x3f)), s += char(0x80 | ((cp >> 6) & 0x3f));
      s += char(0x80 | (cp & 0x3f));
    }
  }
  bool hex4(unsigned* cp) {
    if (p_ + 4 > t_.size()) return fail("short \\u escape");
    char* end = nullptr;
    std::string h = t_.substr(p_, 4);
    *cp = unsigned(std::strtoul(h.c_str(), &end, 16));
    if (end != h.c_str() + 4) return fail("bad \\u escape");
    p_ += 4;
    return true;
  }
  bool string(std::string* s) {
    ++p_;  // opening quote
    while (p_ < t_.size() && t_[p_] != '"') {
      char c = t_[p_++];
      if (c != '\\') {
        *s += c;
        continue;
      }
      if (p_ >= t_.size()) return fail("unterminated escape");
      char e = t_[p_++];
      switch (e) {
        case 'n': *s += '\n'; break;
        case 't': *s += '\t'; break;
        case 'r': *s += '\r'; break;
        case 'b': *s += '\b'; break;
        case 'f': *s += '\f'; break;
        case 'u': {
          unsigned cp = 0;
          if (!hex4(&cp)) return false;
          if (cp >= 0xd800 && cp < 0xdc00 && t_.compare(p_, 2, "\\u") == 0) {
            p_ += 2;
            unsigned lo = 0;
            if (!hex4(&lo)) return false;
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          }
          put_utf8(*s, cp);
          break;
        }
        default: *s += e;
      }
    }
    if (p_ >= t_.size()) return fail("unterminated string");
    ++p_;
    return true;
  }
  bool value(JsonValue* v, int depth) {
    if (depth > 200) return fail("nesting too deep");
    skip_ws();
    if (p_ >= t_.size()) return fail("unexpected end");
    char c = t_[p_];
    if (c == '{') {
      v->kind = JsonValue::Kind::Object;
      ++p_;
      skip_ws();
      if (p_ < t_.size() && t_[p_] == '}') return ++p_, true;
      while (true) {
        skip_ws();
        if (p_ >= t_.size() || t_[p_] != '"') return fail("expected a key");
        std::string key;
        if (!string(&key)) return false;
        skip_ws();
        if (p_ >= t_.size() || t_[p_] != ':') return fail("expected ':'");
        ++p_;
        if (!value(&v->object[key], depth + 1)) return false;
        skip_ws();
        if (p_ < t_.size() && t_[p_] == ',') { ++p_; continue; }
        if (p_ < t_.size() && t_[p_] == '}') return ++p_, true;
        return fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v->kind = JsonValue::Kind::Array;
      ++p_;
      skip_ws();
      if (p_ < t_.size() && t_[p_] == ']') return ++p_, true;
      while (true) {
        v->array.emplace_back();
        if (!value(&v->array.back(), depth + 1)) return false;
        skip_ws();
        if (p_ < t_.size() && t_[p_] == ',') { ++p_; continue; }
        if (p_ < t_.size() && t_[p_] == ']') return ++p_, true;
        return fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      v->kind = JsonValue::Kind::String;
      return string(&v->string);
    }
    if (c == 't') return v->kind = JsonValue::Kind::Bool, v->boolean = true, literal("true");
    if (c == 'f') return v->kind = JsonValue::Kind::Bool, literal("false");
    if (c == 'n') return literal("null");
    const char* start = t_.c_str() + p_;
    char* end = nullptr;
    v->number = std::strtod(start, &end);
    if (end == start) return fail("unexpected character");
    v->kind = JsonValue::Kind::Number;
    p_ += size_t(end - start);
    return true;
  }

  const std::string& t_;
  size_t p_ = 0;
  std::string err_;
};

}  // namespace

bool parse_json(const std::string& text, JsonValue* out, std::string* error) {
  *out = JsonValue{};
  return Parser(text).parse(out, error);
}

}  // namespace erkit::commentary
