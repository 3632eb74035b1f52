#include "common/terminal_text.h"

#include <cstdint>

namespace erkit::common {
namespace {

// Length of the valid, printable UTF-8 sequence at s[i] (0 if the byte must be escaped).
size_t printable_length(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return uint8_t(s[k]); };
  uint8_t c = b(i);
  if (c == '\n' || c == '\t') return 1;
  if (c < 0x20 || c == 0x7f) return 0;
  if (c < 0x80) return 1;
  size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xc0) != 0x80) return 0;
  uint32_t cp = c & (0xff >> (n + 1));
  for (size_t k = 1; k < n; ++k) cp = cp << 6 | (b(i + k) & 0x3f);
  // Overlong forms, surrogates, beyond U+10FFFF, and the C1 controls (U+0080..U+009F: CSI is
  // U+009B) are escaped byte by byte.
  if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ||
      cp < 0xa0)
    return 0;
  return n;
}

}  // namespace

bool is_printable(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    if (uint8_t(text[i]) >= 0x20 && uint8_t(text[i]) < 0x7f) {
      ++i;
      continue;
    }
    size_t n = printable_length(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string printable(std::string_view text) {
  if (is_printable(text)) return std::string(text);
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size() + 16);
  for (size_t i = 0; i < text.size();) {
    size_t n = printable_length(text, i);
    if (n) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    uint8_t c = uint8_t(text[i++]);
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

}  // namespace erkit::common
