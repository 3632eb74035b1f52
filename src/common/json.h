// The one JSON document model and parser of erkit (issue 18: it was views/json.h; views/json.h
// forwards here). Values are built by the views for er_print's machine-readable output and
// written compactly (one report per line) or indented; object members keep insertion order so
// that output is stable and diffable. parse() reads JSON back: tests, the analyzer, and GCC's
// optimisation records (commentary/records.cc).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace erkit::json {

class Value;
using Array = std::vector<Value>;

class Value {
 public:
  enum class Kind : uint8_t { Null, Bool, Int, Double, String, Array, Object, Raw };

  Value() = default;
  Value(std::nullptr_t) {}
  Value(bool b) : kind_(Kind::Bool), i_(b) {}
  Value(int v) : kind_(Kind::Int), i_(v) {}
  Value(unsigned v) : kind_(Kind::Int), i_(v) {}
  Value(long v) : kind_(Kind::Int), i_(v) {}
  Value(unsigned long v) : kind_(Kind::Int), i_(int64_t(v)) {}
  Value(long long v) : kind_(Kind::Int), i_(v) {}
  Value(unsigned long long v) : kind_(Kind::Int), i_(int64_t(v)) {}
  Value(double d) : kind_(Kind::Double), d_(d) {}
  Value(const char* s) : kind_(Kind::String), s_(s) {}
  Value(std::string s) : kind_(Kind::String), s_(std::move(s)) {}
  Value(std::string_view s) : kind_(Kind::String), s_(s) {}
  Value(Array a) : kind_(Kind::Array), items_(std::move(a)) {}

  static Value array() { return Value(Array{}); }
  static Value object() {
    Value v;
    v.kind_ = Kind::Object;
    return v;
  }

  // JSON text written as it is (documents too large to hold as values: the call tree). Reads
  // back as null.
  static Value raw(std::string json_text) {
    Value v;
    v.kind_ = Kind::Raw;
    v.s_ = std::move(json_text);
    return v;
  }

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::Null; }

  // Object: appends a member (or replaces one with the same key); returns *this for chaining.
  Value& set(std::string key, Value v);
  // Array: appends an element.
  Value& push(Value v);

  // Reading back (tests, consumers): lookups return a null value when absent.
  const Value& operator[](std::string_view key) const;
  const Value& operator[](size_t i) const;
  size_t size() const;
  int64_t as_int() const { return kind_ == Kind::Double ? int64_t(d_) : i_; }
  double as_double() const { return kind_ == Kind::Double ? d_ : double(i_); }
  bool as_bool() const { return i_ != 0; }
  const std::string& as_string() const { return s_; }
  const std::vector<std::string>& keys() const { return keys_; }  // Object member names
  const Array& elements() const { return items_; }                 // Array elements, Object values

  // Compact single-line text (indent < 0) or pretty-printed with `indent` spaces per level.
  std::string dump(int indent = -1) const;
  // Appends the compact text to out.
  void append_to(std::string& out) const { write(out, -1, 0); }
  // Hands the compact text to `sink` in pieces (raw documents whole, without a copy), for
  // documents too large to hold twice.
  void dump_to(const std::function<void(std::string_view)>& sink) const;

 private:
  void write(std::string& out, int indent, int level) const;
  void write_chunked(std::string& buf, const std::function<void(std::string_view)>& sink) const;
  Kind kind_ = Kind::Null;
  int64_t i_ = 0;
  double d_ = 0;
  std::string s_;
  std::vector<std::string> keys_;  // Object: member names, parallel to items_
  std::vector<Value> items_;       // Array elements or Object member values
};

// Parses JSON text (\u escapes as UTF-8, surrogate pairs joined; nesting to depth 200).
// Returns false with *error ("<reason> at offset <n>") on bad input.
bool parse(std::string_view text, Value* out, std::string* error);

std::string escape(std::string_view s);  // with the surrounding quotes

}  // namespace erkit::json
