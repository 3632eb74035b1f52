// Text the Java agent writes: a buffered line writer over a descriptor (no allocation) and the
// Java names the Analyzer shows, made from JVM signatures: "LHot;" + "spin" + "(I)V" ->
// "Hot.spin(int)". Header-only; unit-tested in java_text_test.cc.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

namespace erkit::javaagent {

// Appends the Java spelling of one field descriptor at *sig ("I", "[Ljava/lang/String;") and
// advances *sig past it.
inline size_t type_name(char* out, size_t cap, const char** sig) {
  size_t n = 0;
  auto put = [&](const char* s) {
    for (; *s; ++s)
      if (n + 1 < cap) out[n++] = *s;
  };
  int dims = 0;
  while (**sig == '[') ++dims, ++*sig;
  char c = **sig;
  if (c) ++*sig;
  switch (c) {
    case 'B': put("byte"); break;
    case 'C': put("char"); break;
    case 'D': put("double"); break;
    case 'F': put("float"); break;
    case 'I': put("int"); break;
    case 'J': put("long"); break;
    case 'S': put("short"); break;
    case 'Z': put("boolean"); break;
    case 'V': put("void"); break;
    case 'L':
      for (; **sig && **sig != ';'; ++*sig)
        if (n + 1 < cap) out[n++] = **sig == '/' ? '.' : **sig;
      if (**sig == ';') ++*sig;
      break;
    default: put("?");
  }
  for (; dims > 0; --dims) put("[]");
  if (cap) out[n < cap ? n : cap - 1] = 0;
  return n;
}

// "Lpkg/Hot;" -> "pkg.Hot"
inline size_t class_name(char* out, size_t cap, const char* csig) {
  const char* s = csig;
  return type_name(out, cap, &s);
}

// "pkg.Hot.spin(int, java.lang.String[])"
inline size_t format_method(char* out, size_t cap, const char* csig, const char* name, const char* msig) {
  if (!cap) return 0;
  size_t n = class_name(out, cap, csig);
  auto put = [&](const char* s) {
    for (; *s; ++s)
      if (n + 1 < cap) out[n++] = *s;
    out[n] = 0;
  };
  put(".");
  put(name ? name : "?");
  put("(");
  const char* s = msig && *msig == '(' ? msig + 1 : "";
  bool first = true;
  while (*s && *s != ')') {
    if (!first) put(", ");
    first = false;
    char t[512];
    type_name(t, sizeof t, &s);
    put(t);
  }
  put(")");
  return n;
}

// "Interpreter" -> "<Interpreter>": generated code of the JVM, not a method.
inline void bracket_name(char* out, size_t cap, const char* name) {
  size_t n = 0;
  if (cap < 3) return;
  out[n++] = '<';
  for (const char* s = name ? name : "?"; *s && n + 2 < cap; ++s) out[n++] = *s;
  out[n++] = '>';
  out[n] = 0;
}

// A line buffer: whole lines go out in as few writes as possible.
class Out {
 public:
  explicit Out(int fd) : fd_(fd) {}
  ~Out() { flush(); }
  Out& str(const char* s) {
    while (*s) {
      if (n_ == sizeof buf_) flush();
      buf_[n_++] = *s++;
    }
    return *this;
  }
  Out& field(const char* s) {  // a value: tabs and newlines in it become spaces
    for (; *s; ++s) {
      if (n_ == sizeof buf_) flush();
      buf_[n_++] = *s == '\t' || *s == '\n' ? ' ' : *s;
    }
    return *this;
  }
  Out& dec(int64_t v) {
    char t[24];
    int k = 0;
    bool neg = v < 0;
    uint64_t u = neg ? uint64_t(-v) : uint64_t(v);
    do t[k++] = char('0' + u % 10); while (u /= 10);
    if (neg) t[k++] = '-';
    char r[25];
    for (int i = 0; i < k; ++i) r[i] = t[k - 1 - i];
    r[k] = 0;
    return str(r);
  }
  Out& hex(uint64_t v) {
    char r[19] = "0x";
    int k = 0;
    char t[16];
    do t[k++] = "0123456789abcdef"[v & 15]; while (v >>= 4);
    for (int i = 0; i < k; ++i) r[2 + i] = t[k - 1 - i];
    r[2 + k] = 0;
    return str(r);
  }
  Out& hexbytes(const unsigned char* p, size_t n) {  // two lower-case hex digits a byte
    for (size_t i = 0; i < n; ++i) {
      if (n_ + 2 > sizeof buf_) flush();
      buf_[n_++] = "0123456789abcdef"[p[i] >> 4];
      buf_[n_++] = "0123456789abcdef"[p[i] & 15];
    }
    return *this;
  }
  Out& class_name(const char* csig) {
    char t[1024];
    javaagent::class_name(t, sizeof t, csig);
    return field(t);
  }
  Out& method_name(const char* csig, const char* name, const char* msig) {
    char t[2048];
    format_method(t, sizeof t, csig, name, msig);
    return field(t);
  }
  void flush() {
    size_t off = 0;
    while (fd_ >= 0 && off < n_) {
      ssize_t w = write(fd_, buf_ + off, n_ - off);
      if (w <= 0) break;
      off += size_t(w);
    }
    n_ = 0;
  }

 private:
  int fd_;
  size_t n_ = 0;
  char buf_[8192];
};

}  // namespace erkit::javaagent
