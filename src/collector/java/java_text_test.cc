#include "collector/java/java_text.h"

#include <gtest/gtest.h>

#include <string>

namespace erkit::javaagent {
namespace {

std::string method(const char* c, const char* n, const char* s) {
  char out[512];
  format_method(out, sizeof out, c, n, s);
  return out;
}

TEST(JavaText, MethodNamesAsTheAnalyzerShowsThem) {
  EXPECT_EQ(method("LHot;", "spin", "(I)V"), "Hot.spin(int)");
  EXPECT_EQ(method("Lpkg/sub/Hot;", "main", "([Ljava/lang/String;)V"), "pkg.sub.Hot.main(java.lang.String[])");
  EXPECT_EQ(method("LA;", "f", "(JD[[IZ)J"), "A.f(long, double, int[][], boolean)");
  EXPECT_EQ(method("LA$B;", "<init>", "()V"), "A$B.<init>()");
}

TEST(JavaText, CutsLongNamesWithoutOverflow) {
  char out[8];
  format_method(out, sizeof out, "LVeryLongClass;", "m", "(I)V");
  EXPECT_EQ(std::string(out), "VeryLon");
  char b[4];
  bracket_name(b, sizeof b, "Interpreter");
  EXPECT_EQ(std::string(b), "<I>");
}

TEST(JavaText, OutWritesFieldsWithoutSeparatorsInside) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  {
    Out o(p[1]);
    o.str("thread\t").dec(-42).str("\t").field("a\tb\nc").str("\t").hex(0xbeef).str("\n");
  }
  close(p[1]);
  char buf[128] = {};
  ASSERT_GT(read(p[0], buf, sizeof buf - 1), 0);
  close(p[0]);
  EXPECT_EQ(std::string(buf), "thread\t-42\ta b c\t0xbeef\n");
}

}  // namespace
}  // namespace erkit::javaagent
