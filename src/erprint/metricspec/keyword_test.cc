#include "keyword.h"

#include <gtest/gtest.h>

namespace erkit::metricspec {
namespace {

std::vector<Keyword> ok(std::string_view s) {
  auto r = parse_keywords(s);
  if (auto* e = std::get_if<SpecError>(&r)) {
    ADD_FAILURE() << s << ": " << e->message;
    return {};
  }
  return std::get<std::vector<Keyword>>(r);
}
SpecError bad(std::string_view s) {
  auto r = parse_keywords(s);
  if (auto* e = std::get_if<SpecError>(&r)) return *e;
  ADD_FAILURE() << "expected error for " << s;
  return {};
}

TEST(Keyword, DynamicParts) {
  auto k = ok("ie.%user");
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].flavors, "ie");
  EXPECT_EQ(k[0].vis, kVisTime | kVisPercent);
  EXPECT_EQ(k[0].name, "user");
  EXPECT_FALSE(k[0].hidden);
  EXPECT_EQ(ok("i%.user")[0].vis, ok("i.%user")[0].vis);  // order of visibility letters is irrelevant
  EXPECT_TRUE(ok("e!user")[0].hidden);
  EXPECT_EQ(ok("e+syncn")[0].vis, kVisValue);
  EXPECT_EQ(ok("e.data")[0].name, "data");
  EXPECT_EQ(ok("d.cycles")[0].flavors, "d");
  EXPECT_EQ(ok("e.L1-dcache-load-misses")[0].name, "L1-dcache-load-misses");
}

TEST(Keyword, StaticNamesBeginningWithFlavorLetters) {
  auto k = ok("name:address:size:!size:%name");
  ASSERT_EQ(k.size(), 5u);
  for (const auto& x : k) EXPECT_TRUE(x.is_static()) << x.name;
  EXPECT_EQ(k[1].name, "address");
  EXPECT_TRUE(k[3].hidden);
  EXPECT_TRUE(ok("d.name")[0].is_static());  // data_sort may prefix statics with d
}

TEST(Keyword, Offsets) {
  auto k = ok("e.user:i%wall:name");
  EXPECT_EQ(k[0].offset, 0u);
  EXPECT_EQ(k[1].offset, 7u);
  EXPECT_EQ(k[2].offset, 14u);
}

TEST(Keyword, Errors) {
  EXPECT_EQ(bad("").message, "empty metric list");
  EXPECT_EQ(bad("e.user:").offset, 7u);
  EXPECT_EQ(bad("e.user::name").offset, 7u);
  EXPECT_EQ(bad("user").offset, 0u);                // no flavor or visibility
  EXPECT_EQ(bad("e.user:iuser").offset, 7u);        // no visibility
  EXPECT_EQ(bad("e!.user").message, "'!' cannot be combined with other visibility letters");
  EXPECT_EQ(bad("e.").message, "metric keyword 'e.' has no metric name");
  EXPECT_EQ(bad("e.user: i.user").offset, 7u);      // blanks are not allowed
  EXPECT_EQ(bad("e.us$er").offset, 4u);
  EXPECT_EQ(bad(".user").offset, 0u);               // dynamic metric without a flavor
  EXPECT_EQ(bad("x.user").offset, 0u);
}

}  // namespace
}  // namespace erkit::metricspec
