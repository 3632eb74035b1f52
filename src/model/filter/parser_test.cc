#include <gtest/gtest.h>

#include "test_util.h"

namespace erkit::filter {
namespace {
using testing::eval_const;
using testing::must_fail;
using testing::must_parse;

TEST(FilterParse, IntegerLiterals) {
  EXPECT_EQ(eval_const("42"), 42);
  EXPECT_EQ(eval_const("0x1F"), 31);
  EXPECT_EQ(eval_const("0X10"), 16);
  EXPECT_EQ(eval_const("017"), 15);
  EXPECT_EQ(eval_const("0"), 0);
  EXPECT_EQ(eval_const("0xffffffffffffffff"), -1);  // 64-bit addresses wrap to int64
  EXPECT_EQ(eval_const("9223372036854775807"), INT64_MAX);
}

TEST(FilterParse, BadLiterals) {
  EXPECT_EQ(must_fail("09").message, "invalid digit in octal constant");
  EXPECT_EQ(must_fail("0x").message, "hexadecimal constant has no digits");
  EXPECT_EQ(must_fail("12abc").offset, 2u);
  EXPECT_EQ(must_fail("18446744073709551616").message, "integer constant out of range");
}

TEST(FilterParse, CPrecedence) {
  EXPECT_EQ(eval_const("1 + 2 * 3"), 7);
  EXPECT_EQ(eval_const("(1 + 2) * 3"), 9);
  EXPECT_EQ(eval_const("10 - 4 - 3"), 3);  // left associative
  EXPECT_EQ(eval_const("100 / 10 / 5"), 2);
  EXPECT_EQ(eval_const("7 % 4 * 2"), 6);
  EXPECT_EQ(eval_const("1 << 2 + 1"), 8);  // + binds tighter than <<
  EXPECT_EQ(eval_const("1 < 2 == 1"), 1);  // relational before equality
  EXPECT_EQ(eval_const("6 & 3 == 3"), 0);  // == before & (classic C trap)
  EXPECT_EQ(eval_const("1 | 2 ^ 3"), 1);   // ^ before |
  EXPECT_EQ(eval_const("5 & 4 ^ 1"), 5);   // & before ^
  EXPECT_EQ(eval_const("1 || 0 && 0"), 1); // && before ||
  EXPECT_EQ(eval_const("0 && 1 || 1"), 1);
  EXPECT_EQ(eval_const("2 | 1 && 0"), 0);  // | before &&
  EXPECT_EQ(eval_const("-2 * 3"), -6);
  EXPECT_EQ(eval_const("!0 + 1"), 2);      // unary before binary
  EXPECT_EQ(eval_const("~0"), -1);
  EXPECT_EQ(eval_const("- - 3"), 3);
  EXPECT_EQ(eval_const("+3"), 3);
  EXPECT_EQ(eval_const("256 >> 2 >> 1"), 32);
}

TEST(FilterParse, Conditional) {
  EXPECT_EQ(eval_const("1 ? 2 : 3"), 2);
  EXPECT_EQ(eval_const("0 ? 2 : 3"), 3);
  EXPECT_EQ(eval_const("0 ? 1 : 0 ? 2 : 3"), 3);  // right associative
  EXPECT_EQ(eval_const("1 ? 0 ? 5 : 6 : 7"), 6);
  EXPECT_EQ(eval_const("1 || 0 ? 10 : 20"), 10);  // ?: lowest
  EXPECT_EQ(must_fail("1 ? 2").message.find("expected ':'"), 0u);
}

TEST(FilterParse, RoundTrip) {
  const char* cases[] = {
      "THRID == 3",
      "LWPID IN (1,2,5)",
      "SAMPLE IN (2,3)",
      "TSTAMP >= 2000000000 && TSTAMP < 4000000000",
      "LEAF == 17 || LEAF IN FNAME(\"foo.*\")",
      "(FNAME(\"myfunc\") SOME IN STACK)",
      "CPUID != 0 ? PID : -1",
      "~EXPID << 2 >> 1 | 3 ^ 4 & 5",
      "FNAME(\"a\\\"b\") IN STACK",
      "LEAF IN (7)",
      "STACK == 5",
      "01000000000000000000000 > 4",  // wraps negative: printed in hex to stay one token
      "0 ? 1 : 0 ? 2 : 3",
      "- - ~ ! 3",
  };
  for (const char* c : cases) {
    Expr e = must_parse(c);
    const std::string once = e.to_string();
    Expr again = must_parse(once);
    EXPECT_EQ(again.to_string(), once) << c;
  }
  EXPECT_EQ(must_parse("1+2*3").to_string(), "(1 + (2 * 3))");
  EXPECT_EQ(must_parse("LWPID IN (5, 1,2,2)").to_string(), "(LWPID IN (1, 2, 5))");
}

TEST(FilterParse, KeywordsCaseInsensitive) {
  EXPECT_EQ(must_parse("thrid == 1 && leaf some in stack").to_string(),
            "((THRID == 1) && (LEAF SOME IN STACK))");
}

TEST(FilterParse, ErrorsPointAtToken) {
  auto e = must_fail("THRID == FOO");
  EXPECT_EQ(e.message, "unknown keyword 'FOO'");
  EXPECT_EQ(e.offset, 9u);
  EXPECT_EQ(e.caret_line(), "         ^");
  EXPECT_EQ(e.display(), "THRID == FOO\n         ^\nunknown keyword 'FOO'");

  e = must_fail("LEAF IN FNAME(\"abc");
  EXPECT_EQ(e.message, "unterminated string");
  EXPECT_EQ(e.offset, 14u);

  e = must_fail("LEAF IN FNAME(\"a(b\")");
  EXPECT_EQ(e.message.rfind("bad regular expression", 0), 0u);
  EXPECT_EQ(e.offset, 14u);

  e = must_fail("THRID == 3 3");
  EXPECT_EQ(e.message, "unexpected integer constant after expression");
  EXPECT_EQ(e.offset, 11u);

  e = must_fail("THRID = 3");
  EXPECT_EQ(e.offset, 6u);

  e = must_fail("THRID == ");
  EXPECT_EQ(e.offset, 9u);
  EXPECT_EQ(e.message, "expected an operand, found end of expression");

  e = must_fail("(1 + 2");
  EXPECT_EQ(e.offset, 6u);

  e = must_fail("THRID $ 1");
  EXPECT_EQ(e.message, "unexpected character '$'");
  EXPECT_EQ(e.offset, 6u);

  EXPECT_EQ(must_fail("").message, "expected an operand, found end of expression");
  EXPECT_EQ(must_fail("LEAF SOME STACK").message, "expected IN after SOME");
  EXPECT_EQ(must_fail("IN STACK").message, "expected an operand before IN");
  EXPECT_EQ(must_fail("FNAME(foo)").message, "expected a quoted regular expression");
  EXPECT_EQ(must_fail("\"foo\"").message, "a string is only allowed inside FNAME() or DNAME()");
}

TEST(FilterParse, SetTypeErrors) {
  EXPECT_NE(must_fail("STACK").message.find("set"), std::string::npos);
  EXPECT_NE(must_fail("STACK + 1").message.find("set"), std::string::npos);
  EXPECT_EQ(must_fail("1 + STACK").offset, 4u);
  EXPECT_NE(must_fail("STACK == FNAME(\"x\")").message.find("two sets"), std::string::npos);
  EXPECT_NE(must_fail("STACK ? 1 : 2").message.find("set"), std::string::npos);
  EXPECT_NE(must_fail("!STACK").message.find("set"), std::string::npos);
  EXPECT_NE(must_fail("STACK < 3").message.find("set"), std::string::npos);
  EXPECT_EQ(must_fail("LEAF IN (1, THRID)").message, "set elements must be integer constants");
  EXPECT_EQ(must_fail("LEAF IN (1, THRID)").offset, 12u);
}

TEST(FilterParse, ConstantListElements) {
  auto e = must_parse("LEAF IN (-1, 0x10, 1 << 4, 2 * 3)");
  EXPECT_EQ(e.to_string(), "(LEAF IN (-1, 6, 16))");
}

TEST(FilterParse, DeepNestingIsCapped) {
  std::string deep(100000, '(');
  deep += "1";
  deep += std::string(100000, ')');
  EXPECT_EQ(must_fail(deep).message, "expression nested too deeply");

  std::string neg(100000, '-');
  neg += "1";
  EXPECT_EQ(must_fail(neg).message, "expression nested too deeply");

  std::string chain = "1";
  for (int i = 0; i < 100000; ++i) chain += "+1";
  EXPECT_EQ(must_fail(chain).message, "expression nested too deeply");

  std::string tern;
  for (int i = 0; i < 100000; ++i) tern += "1?1:";
  tern += "0";
  EXPECT_EQ(must_fail(tern).message, "expression nested too deeply");

  std::string ok(200, '(');
  ok += "1";
  ok += std::string(200, ')');
  EXPECT_EQ(eval_const(ok), 1);
}

TEST(FilterParse, MemoryObjectNames) {
  ParseOptions o;
  o.memobj_names = {"Vpage_8K", "Cacheline"};
  auto e = must_parse("Vpage_8K == 1234 || CACHELINE IN (1, 2)", o);
  EXPECT_TRUE(e.uses_dataspace());
  EXPECT_EQ(e.to_string(), "((Vpage_8K == 1234) || (Cacheline IN (1, 2)))");
  EXPECT_EQ(must_fail("Vpage_8K == 1").message, "unknown keyword 'Vpage_8K'");
}

TEST(FilterParse, MemobjIndexExpressions) {
  // Shapes of the manual's obj_define examples.
  EXPECT_FALSE(std::holds_alternative<ParseError>(Expr::parse("VADDR>255?VADDR>>13:-1")));
  EXPECT_FALSE(std::holds_alternative<ParseError>(Expr::parse("PADDR>0?PADDR>>6:-1")));
}

}  // namespace
}  // namespace erkit::filter
