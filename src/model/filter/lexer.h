// Tokeniser for the expression grammar.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace erkit::filter::detail {

enum class Tok : uint8_t {
  End, Int, Ident, String,
  LParen, RParen, Comma, Question, Colon,
  Plus, Minus, Star, Slash, Percent, Shl, Shr,
  Lt, Le, Gt, Ge, EqEq, Ne, Amp, Caret, Pipe, AndAnd, OrOr, Bang, Tilde,
  Error,
};

struct Token {
  Tok kind = Tok::End;
  size_t offset = 0;
  size_t length = 0;
  int64_t value = 0;   // Int
  std::string text;    // Ident (as written), String (unescaped), Error (message)
};

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}
  Token next();

 private:
  Token number(size_t start);
  Token string_lit(size_t start);
  std::string_view s_;
  size_t pos_ = 0;
};

const char* tok_name(Tok t);

}  // namespace erkit::filter::detail
