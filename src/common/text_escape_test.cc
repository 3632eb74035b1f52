#include "common/text_escape.h"

#include <gtest/gtest.h>

namespace erkit::common {

TEST(TextEvent, ParsesPlainAndQuotedValues) {
  auto ev = parse_text_event(R"(123 load path="/a b/\"c\"\\d" bias=0x1000 n=-5)");
  ASSERT_TRUE(ev);
  EXPECT_EQ(ev->tstamp_ns, 123u);
  EXPECT_EQ(ev->name, "load");
  EXPECT_EQ(ev->get("path"), "/a b/\"c\"\\d");
  EXPECT_EQ(ev->get_int("bias"), 0x1000);
  EXPECT_EQ(ev->get_int("n"), -5);
  EXPECT_FALSE(ev->get_int("missing"));
}

TEST(TextEvent, RoundTripsQuoting) {
  std::string v = "line1\nline \"2\" \\";
  auto ev = parse_text_event("0 x k=" + quote_value(v));
  ASSERT_TRUE(ev);
  EXPECT_EQ(ev->get("k"), v);
}

TEST(TextEvent, RejectsMalformedLines) {
  EXPECT_FALSE(parse_text_event(""));
  EXPECT_FALSE(parse_text_event("abc start"));
  EXPECT_FALSE(parse_text_event("12 start key"));
  EXPECT_FALSE(parse_text_event("12 start key=\"unterminated"));
  EXPECT_FALSE(parse_text_event("12"));
}

}  // namespace erkit::common
