#include "analyzer/security.h"

#include <gtest/gtest.h>

#include <set>

namespace erkit::analyzer {
namespace {

TEST(AnalyzerSecurity, TokensAreRandomHex) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    std::string t = random_token();
    ASSERT_EQ(t.size(), 32u);
    EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos) << t;
    seen.insert(t);
  }
  EXPECT_EQ(seen.size(), 100u);
}

TEST(AnalyzerSecurity, ConstantTimeEqual) {
  EXPECT_TRUE(constant_time_equal("abc", "abc"));
  EXPECT_FALSE(constant_time_equal("abc", "abd"));
  EXPECT_FALSE(constant_time_equal("abc", "ab"));
  EXPECT_FALSE(constant_time_equal("", "a"));
}

TEST(AnalyzerSecurity, CookieValue) {
  EXPECT_EQ(cookie_value("a=1; erkit_analyzer_80=xyz; b=2", "erkit_analyzer_80"), "xyz");
  EXPECT_EQ(cookie_value("erkit_analyzer_8080=xyz", "erkit_analyzer_80"), "");
  EXPECT_EQ(cookie_value("", "x"), "");
}

class RequestRules : public ::testing::Test {
 protected:
  Access a{"0123456789abcdef0123456789abcdef", 4242};
  RequestFacts ok() {
    RequestFacts f;
    f.host = "127.0.0.1:4242";
    f.query_token = a.token;
    return f;
  }
  bool allowed(const RequestFacts& f) {
    why.clear();
    return request_allowed(a, f, &why);
  }
  std::string why;
};

TEST_F(RequestRules, TokenInQueryHeaderOrCookie) {
  EXPECT_TRUE(allowed(ok()));
  RequestFacts f = ok();
  f.query_token = {};
  f.header_token = a.token;
  EXPECT_TRUE(allowed(f));
  f.header_token = {};
  std::string c = "x=1; " + token_cookie_name(4242) + "=" + a.token;
  f.cookies = c;
  EXPECT_TRUE(allowed(f));
  f.host = "localhost:4242";
  EXPECT_TRUE(allowed(f));
}

TEST_F(RequestRules, NoTokenOrWrongToken) {
  RequestFacts f = ok();
  f.query_token = {};
  EXPECT_FALSE(allowed(f));
  EXPECT_EQ(why, "no token");
  f.query_token = "0123456789abcdef0123456789abcdee";
  EXPECT_FALSE(allowed(f));
  EXPECT_EQ(why, "wrong token");
  // The cookie of another analyzer (another port) does not open this one.
  f.query_token = {};
  std::string c = token_cookie_name(4243) + "=" + a.token;
  f.cookies = c;
  EXPECT_FALSE(allowed(f));
}

TEST_F(RequestRules, HostAndOrigin) {
  RequestFacts f = ok();
  for (const char* h : {"evil.example:4242", "127.0.0.1:4243", "127.0.0.1", "", "127.0.0.1:4242.evil"}) {
    f.host = h;
    EXPECT_FALSE(allowed(f)) << h;
    EXPECT_NE(why.find("Host"), std::string::npos);
  }
  f = ok();
  f.origin = "http://127.0.0.1:4242";
  EXPECT_TRUE(allowed(f));
  for (const char* o : {"http://evil.example", "null", "http://127.0.0.1:4243", "https://127.0.0.1:4242"}) {
    f.origin = o;
    EXPECT_FALSE(allowed(f)) << o;
    EXPECT_NE(why.find("Origin"), std::string::npos);
  }
}

}  // namespace
}  // namespace erkit::analyzer
