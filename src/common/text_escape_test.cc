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

// The host writers' line builder writes exactly what the parser reads back (issue 18: collect's
// log lines are built from format/log_keys.h names through it).
TEST(TextEvent, EventLineRoundTrips) {
  EventLine l(0, "setting");
  l.kv("name", "follow").kv("value", "all").kv_quoted("regex", "a \"b\"\n").kv("n", -3).kv("u", uint64_t(1) << 63);
  EXPECT_EQ(l.str(), "0 setting name=follow value=all regex=\"a \\\"b\\\"\\n\" n=-3 u=9223372036854775808");
  auto ev = parse_text_event(l.str());
  ASSERT_TRUE(ev);
  EXPECT_EQ(ev->name, "setting");
  EXPECT_EQ(ev->get("regex"), "a \"b\"\n");
  EXPECT_EQ(ev->get_int("n"), -3);
  EXPECT_EQ(EventLine(42, "end").kv("how", "exit").kv("status", 0).str(), "42 end how=exit status=0");
}

TEST(TextEvent, RejectsMalformedLines) {
  EXPECT_FALSE(parse_text_event(""));
  EXPECT_FALSE(parse_text_event("abc start"));
  EXPECT_FALSE(parse_text_event("12 start key"));
  EXPECT_FALSE(parse_text_event("12 start key=\"unterminated"));
  EXPECT_FALSE(parse_text_event("12"));
}

}  // namespace erkit::common
