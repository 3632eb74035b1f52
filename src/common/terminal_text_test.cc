#include "common/terminal_text.h"

#include <gtest/gtest.h>

namespace erkit::common {

TEST(TerminalText, PlainTextIsKept) {
  EXPECT_EQ(printable("main\tfoo(int)\n"), "main\tfoo(int)\n");
  EXPECT_TRUE(is_printable("std::vector<int>::push_back"));
  // Valid UTF-8 stays: Latin, Greek, CJK, emoji.
  EXPECT_EQ(printable("caf\xc3\xa9 \xce\xb1 \xe6\xbc\xa2 \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xce\xb1 \xe6\xbc\xa2 \xf0\x9f\x98\x80");
}

TEST(TerminalText, ControlCharactersAreEscaped) {
  // An xterm title sequence and a screen clear in a program name.
  EXPECT_EQ(printable("prog\x1b]0;owned\x07\x1b[2J"), "prog\\x1b]0;owned\\x07\\x1b[2J");
  EXPECT_EQ(printable(std::string("a\0b\rc\x7f", 6)), "a\\x00b\\x0dc\\x7f");
  EXPECT_FALSE(is_printable("\x1b[31m"));
}

TEST(TerminalText, C1ControlsAndInvalidUtf8AreEscaped) {
  EXPECT_EQ(printable("\xc2\x9b" "31m"), "\\xc2\\x9b31m");  // U+009B, the 8-bit CSI
  EXPECT_EQ(printable("\x9b" "31m"), "\\x9b31m");           // a raw C1 byte
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(printable("ab\xe6\xbc"), "ab\\xe6\\xbc");       // cut short
  EXPECT_EQ(printable("\xff"), "\\xff");
}

}  // namespace erkit::common
