#include "collector/text_line.h"

#include <unistd.h>

#include "collector/fd_guard.h"

namespace erkit::collector {

TextLine& TextLine::chr(char c) {
  if (len_ + 2 < kCap) buf_[len_++] = c;  // keep room for the newline
  return *this;
}

TextLine& TextLine::str(const char* s) {
  while (s && *s) chr(*s++);
  return *this;
}

TextLine& TextLine::udec(uint64_t v) {
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = char('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) chr(tmp[--n]);
  return *this;
}

TextLine& TextLine::dec(int64_t v) {
  if (v < 0) {
    chr('-');
    return udec(uint64_t(0) - uint64_t(v));
  }
  return udec(uint64_t(v));
}

TextLine& TextLine::hex(uint64_t v) {
  str("0x");
  char tmp[17];
  int n = 0;
  do {
    tmp[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v);
  while (n) chr(tmp[--n]);
  return *this;
}

TextLine& TextLine::kv(const char* key, const char* value) {
  return chr(' ').str(key).chr('=').str(value);
}

TextLine& TextLine::kv_quoted(const char* key, const char* value) {
  chr(' ').str(key).str("=\"");
  for (const char* p = value; p && *p; ++p) {
    if (*p == '\\' || *p == '"') {
      chr('\\').chr(*p);
    } else if (*p == '\n') {
      chr('\\').chr('n');
    } else {
      chr(*p);
    }
  }
  return chr('"');
}

TextLine& TextLine::kv_dec(const char* key, int64_t v) { return chr(' ').str(key).chr('=').dec(v); }
TextLine& TextLine::kv_hex(const char* key, uint64_t v) { return chr(' ').str(key).chr('=').hex(v); }

TextLine& TextLine::event(uint64_t tstamp_ns, const char* name) {
  len_ = 0;
  return udec(tstamp_ns).chr(' ').str(name);
}

bool TextLine::write_to(int fd) {
  fd = fd_guard_resolve(fd);  // the program may have closed or reused the number (fd_guard.h)
  if (fd < 0) return false;
  buf_[len_++] = '\n';
  ssize_t n = ::write(fd, buf_, len_);
  len_--;
  return n == ssize_t(len_ + 1);
}

}  // namespace erkit::collector
