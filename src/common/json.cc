#include "common/json.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace erkit::json {

namespace {
const Value kNull;
}

Value& Value::set(std::string key, Value v) {
  if (kind_ == Kind::Null) kind_ = Kind::Object;
  for (size_t i = 0; i < keys_.size(); ++i)
    if (keys_[i] == key) {
      items_[i] = std::move(v);
      return *this;
    }
  keys_.push_back(std::move(key));
  items_.push_back(std::move(v));
  return *this;
}

Value& Value::push(Value v) {
  if (kind_ == Kind::Null) kind_ = Kind::Array;
  items_.push_back(std::move(v));
  return *this;
}

const Value& Value::operator[](std::string_view key) const {
  if (kind_ != Kind::Object) return kNull;
  for (size_t i = 0; i < keys_.size(); ++i)
    if (keys_[i] == key) return items_[i];
  return kNull;
}

const Value& Value::operator[](size_t i) const {
  if ((kind_ != Kind::Array && kind_ != Kind::Object) || i >= items_.size()) return kNull;
  return items_[i];
}

size_t Value::size() const { return kind_ == Kind::Array || kind_ == Kind::Object ? items_.size() : 0; }

std::string escape(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) out += fmt::format("\\u{:04x}", c);
        else out += char(c);
    }
  }
  return out + "\"";
}

void Value::write(std::string& out, int indent, int level) const {
  auto newline = [&](int lv) {
    if (indent < 0) return;
    out += '\n';
    out.append(size_t(indent * lv), ' ');
  };
  switch (kind_) {
    case Kind::Null: out += "null"; return;
    case Kind::Bool: out += i_ ? "true" : "false"; return;
    case Kind::Int: out += fmt::format("{}", i_); return;
    case Kind::Double:
      // JSON has no NaN/Infinity; shortest round-trip form otherwise.
      if (!std::isfinite(d_)) out += "null";
      else out += fmt::format("{}", d_);
      return;
    case Kind::String: out += escape(s_); return;
    case Kind::Raw: out += s_; return;
    case Kind::Array:
    case Kind::Object: {
      const bool obj = kind_ == Kind::Object;
      out += obj ? '{' : '[';
      for (size_t i = 0; i < items_.size(); ++i) {
        if (i) out += ',';
        newline(level + 1);
        if (obj) {
          out += escape(keys_[i]);
          out += indent < 0 ? ":" : ": ";
        }
        items_[i].write(out, indent, level + 1);
      }
      if (!items_.empty()) newline(level);
      out += obj ? '}' : ']';
      return;
    }
  }
}

void Value::write_chunked(std::string& buf, const std::function<void(std::string_view)>& sink) const {
  if (kind_ == Kind::Raw) {
    sink(buf);
    buf.clear();
    sink(s_);
    return;
  }
  if (kind_ != Kind::Array && kind_ != Kind::Object) {
    write(buf, -1, 0);
  } else {
    const bool obj = kind_ == Kind::Object;
    buf += obj ? '{' : '[';
    for (size_t i = 0; i < items_.size(); ++i) {
      if (i) buf += ',';
      if (obj) {
        buf += escape(keys_[i]);
        buf += ':';
      }
      items_[i].write_chunked(buf, sink);
    }
    buf += obj ? '}' : ']';
  }
  if (buf.size() >= (1u << 20)) {
    sink(buf);
    buf.clear();
  }
}

void Value::dump_to(const std::function<void(std::string_view)>& sink) const {
  std::string buf;
  write_chunked(buf, sink);
  sink(buf);
}

std::string Value::dump(int indent) const {
  std::string out;
  write(out, indent, 0);
  return out;
}

namespace {

class Parser {
 public:
  explicit Parser(std::string_view t) : t_(t) {}
  bool run(Value* out, std::string* err) {
    bool ok = value(out, 0);
    skip();
    if (ok && p_ != t_.size()) ok = fail("trailing text");
    if (!ok) *err = fmt::format("{} at offset {}", err_, p_);
    return ok;
  }

 private:
  bool fail(const char* m) {
    if (err_.empty()) err_ = m;
    return false;
  }
  void skip() {
    while (p_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[p_]))) ++p_;
  }
  bool lit(std::string_view w) {
    if (t_.substr(p_, w.size()) != w) return false;
    p_ += w.size();
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
    if (p_ + 4 > t_.size()) return fail("bad \\u escape");
    std::string h(t_.substr(p_, 4));
    char* end = nullptr;
    *cp = unsigned(std::strtoul(h.c_str(), &end, 16));
    if (end != h.c_str() + 4) return fail("bad \\u escape");
    p_ += 4;
    return true;
  }
  bool string(std::string* s) {
    if (p_ >= t_.size() || t_[p_] != '"') return fail("expected string");
    ++p_;
    while (p_ < t_.size() && t_[p_] != '"') {
      char c = t_[p_++];
      if (c != '\\') {
        *s += c;
        continue;
      }
      if (p_ >= t_.size()) return fail("bad escape");
      char e = t_[p_++];
      switch (e) {
        case 'n': *s += '\n'; break;
        case 't': *s += '\t'; break;
        case 'r': *s += '\r'; break;
        case 'b': *s += '\b'; break;
        case 'f': *s += '\f'; break;
        case 'u': {  // UTF-16 escapes, surrogate pairs joined, written as UTF-8
          unsigned cp = 0;
          if (!hex4(&cp)) return false;
          if (cp >= 0xd800 && cp < 0xdc00 && t_.substr(p_, 2) == "\\u") {
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
  bool value(Value* out, int depth) {
    if (depth > 200) return fail("nested too deeply");
    skip();
    if (p_ >= t_.size()) return fail("unexpected end");
    char c = t_[p_];
    if (c == '{') {
      ++p_;
      *out = Value::object();
      skip();
      if (p_ < t_.size() && t_[p_] == '}') return ++p_, true;
      while (true) {
        skip();
        std::string k;
        if (!string(&k)) return false;
        skip();
        if (p_ >= t_.size() || t_[p_] != ':') return fail("expected ':'");
        ++p_;
        Value v;
        if (!value(&v, depth + 1)) return false;
        out->set(std::move(k), std::move(v));
        skip();
        if (p_ < t_.size() && t_[p_] == ',') { ++p_; continue; }
        if (p_ < t_.size() && t_[p_] == '}') return ++p_, true;
        return fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      ++p_;
      *out = Value::array();
      skip();
      if (p_ < t_.size() && t_[p_] == ']') return ++p_, true;
      while (true) {
        Value v;
        if (!value(&v, depth + 1)) return false;
        out->push(std::move(v));
        skip();
        if (p_ < t_.size() && t_[p_] == ',') { ++p_; continue; }
        if (p_ < t_.size() && t_[p_] == ']') return ++p_, true;
        return fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      std::string s;
      if (!string(&s)) return false;
      *out = Value(std::move(s));
      return true;
    }
    if (lit("true")) return *out = Value(true), true;
    if (lit("false")) return *out = Value(false), true;
    if (lit("null")) return *out = Value(), true;
    size_t start = p_;
    bool is_double = false;
    if (p_ < t_.size() && (t_[p_] == '-' || t_[p_] == '+')) ++p_;
    while (p_ < t_.size() && (std::isdigit(static_cast<unsigned char>(t_[p_])) || t_[p_] == '.' || t_[p_] == 'e' ||
                              t_[p_] == 'E' || t_[p_] == '-' || t_[p_] == '+')) {
      if (!std::isdigit(static_cast<unsigned char>(t_[p_]))) is_double = true;
      ++p_;
    }
    if (p_ == start) return fail("unexpected character");
    std::string num(t_.substr(start, p_ - start));
    if (is_double) *out = Value(std::strtod(num.c_str(), nullptr));
    else *out = Value(static_cast<long long>(std::strtoll(num.c_str(), nullptr, 10)));
    return true;
  }

  std::string_view t_;
  size_t p_ = 0;
  std::string err_;
};

}  // namespace

bool parse(std::string_view text, Value* out, std::string* error) { return Parser(text).run(out, error); }

}  // namespace erkit::json
