// Async-signal-safe building of text lines for the log and map files: a fixed buffer, no
// allocation, truncation instead of overflow. Every method is async-signal-safe.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace erkit::collector {

class TextLine {
 public:
  TextLine& str(const char* s);
  TextLine& chr(char c);
  TextLine& dec(int64_t v);
  TextLine& udec(uint64_t v);
  TextLine& hex(uint64_t v);  // with 0x prefix
  // key=value pieces, preceded by a space.
  TextLine& kv(const char* key, const char* value_unquoted);
  TextLine& kv_quoted(const char* key, const char* value);  // escapes \ " and newline
  TextLine& kv_dec(const char* key, int64_t v);
  TextLine& kv_hex(const char* key, uint64_t v);
  // Starts a line "<tstamp_ns> <event>".
  TextLine& event(uint64_t tstamp_ns, const char* name);
  // Appends '\n' and writes the whole line with one write(2) to an O_APPEND descriptor.
  bool write_to(int fd);
  const char* data() const { return buf_; }
  size_t size() const { return len_; }

 private:
  static constexpr size_t kCap = 4096;
  char buf_[kCap];
  size_t len_ = 0;
};

}  // namespace erkit::collector
