#include "model/viewmode/java_info.h"

#include <gtest/gtest.h>

namespace erkit::model {
namespace {

TEST(JavaInfo, ReadsThreadsAndMethodsWithLineTables) {
  auto info = parse_java_info(
      "class\tHot\tHot.java\n"
      "method\t0x7f00001000a8\tHot\tHot.spin(int)\tHot.java\tjava\t0:10,4:11,9:13\n"
      "method\t0x7f00001000b0\tHot\tHot.work()\tHot.java\tnative\t\n"
      "thread\t4242\tworker 1\n"
      "thread\t4242\tDestroyJavaVM\n");
  EXPECT_TRUE(info.present);
  EXPECT_EQ(info.bad_lines, 0u);
  ASSERT_EQ(info.methods.size(), 2u);
  const JavaMethod& m = info.methods.at(0x7f00001000a8);
  EXPECT_EQ(m.name, "Hot.spin(int)");
  EXPECT_EQ(m.source, "Hot.java");
  EXPECT_FALSE(m.native);
  EXPECT_EQ(m.line_at(0), 10u);
  EXPECT_EQ(m.line_at(3), 10u);
  EXPECT_EQ(m.line_at(4), 11u);
  EXPECT_EQ(m.line_at(200), 13u);
  EXPECT_TRUE(info.methods.at(0x7f00001000b0).native);
  EXPECT_EQ(info.methods.at(0x7f00001000b0).line_at(5), 0u);
  EXPECT_EQ(info.threads.at(4242), "worker 1");
}

TEST(JavaInfo, CountsLinesItCannotRead) {
  auto info = parse_java_info("method\tzz\tA\tA.f()\tA.java\tjava\t\n"  // bad id
                              "method\t0x10\tA\tA.g()\tA.java\tjava\t1:x\n"  // bad table
                              "thread\t12\n"                              // cut
                              "method\t0x20\tA\tA.h()\tA.java\tjava\t0:5\n");
  EXPECT_EQ(info.bad_lines, 3u);
  EXPECT_EQ(info.methods.size(), 1u);
  EXPECT_EQ(info.methods.at(0x20).line_at(0), 5u);
}

// Version 2 files: a "version" record first, each method's bytecodes in a "code" record after it.
TEST(JavaInfo, ReadsVersionAndBytecodes) {
  auto info = parse_java_info(
      "version\t2\n"
      "method\t0x7f00001000a8\tHot\tHot.spin(int)\tHot.java\tjava\t0:10\n"
      "code\t0x7f00001000a8\t1a3c84010104ac\n"
      "code\t0x99\t00\n"            // no such method
      "code\t0x7f00001000a8\t1a3\n");  // odd digit count
  EXPECT_EQ(info.version, 2u);
  EXPECT_EQ(info.bad_lines, 2u);
  const JavaMethod& m = info.methods.at(0x7f00001000a8);
  EXPECT_EQ(m.code, (std::vector<uint8_t>{0x1a, 0x3c, 0x84, 0x01, 0x01, 0x04, 0xac}));
  EXPECT_EQ(find_java_method_code(info, "Hot.spin(int)"), &m);
  EXPECT_EQ(find_java_method_code(info, "Hot.other()"), nullptr);
  EXPECT_EQ(parse_java_info("method\t0x20\tA\tA.h()\tA.java\tjava\t0:5\n").version, 1u);  // older agents
}

TEST(JavaInfo, ViewModeNames) {
  ViewMode m = ViewMode::kUser;
  EXPECT_TRUE(parse_view_mode("machine", &m));
  EXPECT_EQ(m, ViewMode::kMachine);
  EXPECT_STREQ(view_mode_name(ViewMode::kExpert), "expert");
  EXPECT_FALSE(parse_view_mode("java", &m));
  EXPECT_FALSE(load_java_info("/nonexistent").present);
}

}  // namespace
}  // namespace erkit::model
