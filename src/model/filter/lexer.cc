#include "lexer.h"

#include <cctype>

namespace erkit::filter::detail {

namespace {
Token make(Tok k, size_t off, size_t len) {
  Token t;
  t.kind = k;
  t.offset = off;
  t.length = len;
  return t;
}
Token error(size_t off, std::string msg) {
  Token t = make(Tok::Error, off, 1);
  t.text = std::move(msg);
  return t;
}
bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
}  // namespace

const char* tok_name(Tok t) {
  switch (t) {
    case Tok::End: return "end of expression";
    case Tok::Int: return "integer";
    case Tok::Ident: return "keyword";
    case Tok::String: return "string";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::Comma: return "','";
    case Tok::Question: return "'?'";
    case Tok::Colon: return "':'";
    default: return "operator";
  }
}

Token Lexer::next() {
  while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  const size_t start = pos_;
  if (pos_ >= s_.size()) return make(Tok::End, start, 0);
  const char c = s_[pos_];
  const char d = pos_ + 1 < s_.size() ? s_[pos_ + 1] : '\0';
  if (std::isdigit(static_cast<unsigned char>(c))) return number(start);
  if (ident_start(c)) {
    while (pos_ < s_.size() && ident_char(s_[pos_])) ++pos_;
    Token t = make(Tok::Ident, start, pos_ - start);
    t.text = std::string(s_.substr(start, pos_ - start));
    return t;
  }
  if (c == '"') return string_lit(start);
  auto two = [&](Tok k) { pos_ += 2; return make(k, start, 2); };
  auto one = [&](Tok k) { pos_ += 1; return make(k, start, 1); };
  switch (c) {
    case '(': return one(Tok::LParen);
    case ')': return one(Tok::RParen);
    case ',': return one(Tok::Comma);
    case '?': return one(Tok::Question);
    case ':': return one(Tok::Colon);
    case '+': return one(Tok::Plus);
    case '-': return one(Tok::Minus);
    case '*': return one(Tok::Star);
    case '/': return one(Tok::Slash);
    case '%': return one(Tok::Percent);
    case '~': return one(Tok::Tilde);
    case '^': return one(Tok::Caret);
    case '<': return d == '<' ? two(Tok::Shl) : d == '=' ? two(Tok::Le) : one(Tok::Lt);
    case '>': return d == '>' ? two(Tok::Shr) : d == '=' ? two(Tok::Ge) : one(Tok::Gt);
    case '=':
      if (d == '=') return two(Tok::EqEq);
      return error(start, "'=' is not an operator (use '==')");
    case '!': return d == '=' ? two(Tok::Ne) : one(Tok::Bang);
    case '&': return d == '&' ? two(Tok::AndAnd) : one(Tok::Amp);
    case '|': return d == '|' ? two(Tok::OrOr) : one(Tok::Pipe);
    default: break;
  }
  return error(start, std::string("unexpected character '") + c + "'");
}

Token Lexer::number(size_t start) {
  // Accumulate unsigned so that 64-bit addresses (VADDR > 2^63) can be written in hex.
  unsigned base = 10;
  if (s_[pos_] == '0' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == 'x' || s_[pos_ + 1] == 'X')) {
    base = 16;
    pos_ += 2;
  } else if (s_[pos_] == '0') {
    base = 8;
  }
  const size_t digits_start = pos_;
  uint64_t v = 0;
  bool overflow = false;
  while (pos_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[pos_]))) {
    const char ch = static_cast<char>(std::tolower(static_cast<unsigned char>(s_[pos_])));
    unsigned dv = 99;
    if (ch >= '0' && ch <= '9') dv = static_cast<unsigned>(ch - '0');
    else if (ch >= 'a' && ch <= 'f') dv = static_cast<unsigned>(ch - 'a' + 10);
    if (dv >= base) {
      return error(pos_, base == 8 && dv < 10 ? "invalid digit in octal constant"
                                              : "invalid character in integer constant");
    }
    if (v > (UINT64_MAX - dv) / base) overflow = true;
    v = v * base + dv;
    ++pos_;
  }
  if (base == 16 && pos_ == digits_start) return error(start, "hexadecimal constant has no digits");
  if (overflow) return error(start, "integer constant out of range");
  Token t = make(Tok::Int, start, pos_ - start);
  t.value = static_cast<int64_t>(v);
  return t;
}

Token Lexer::string_lit(size_t start) {
  // Only \" and \\ are escapes; any other backslash is kept so regex escapes like \. survive.
  ++pos_;
  std::string out;
  while (pos_ < s_.size()) {
    const char ch = s_[pos_];
    if (ch == '"') {
      ++pos_;
      Token t = make(Tok::String, start, pos_ - start);
      t.text = std::move(out);
      return t;
    }
    if (ch == '\\' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '"' || s_[pos_ + 1] == '\\')) {
      out.push_back(s_[pos_ + 1]);
      pos_ += 2;
      continue;
    }
    out.push_back(ch);
    ++pos_;
  }
  return error(start, "unterminated string");
}

}  // namespace erkit::filter::detail
