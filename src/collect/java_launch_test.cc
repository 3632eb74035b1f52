#include "collect/java_launch.h"

#include <gtest/gtest.h>

#include "collect/options.h"

namespace erkit::collect {
namespace {

TEST(JavaLaunch, LaunchersByName) {
  EXPECT_TRUE(java_launcher("java"));
  EXPECT_TRUE(java_launcher("/usr/lib/jvm/java-17-openjdk-amd64/bin/java"));
  EXPECT_FALSE(java_launcher("javac"));
  EXPECT_FALSE(java_launcher("./app"));
  EXPECT_FALSE(starts_jvm("/bin/sh"));
}

TEST(JavaLaunch, JvmOptionsSplitLikeAShell) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split_jvm_options("-Xmx1g  -Dk='a b' \"-Dq=x y\""), (V{"-Xmx1g", "-Dk=a b", "-Dq=x y"}));
  EXPECT_EQ(split_jvm_options(""), V{});
  EXPECT_EQ(split_jvm_options("''"), V{""});
}

TEST(JavaLaunch, AgentGoesAfterTheLauncherName) {
  using V = std::vector<std::string>;
  EXPECT_EQ(java_command({"java", "-cp", "d", "Hot"}, "/l/a.so", {"-Xmx1g"}),
            (V{"java", "-agentpath:/l/a.so", "-Xmx1g", "-cp", "d", "Hot"}));
  EXPECT_EQ(java_tool_options("/l/a.so", {"-Xss2m"}, "-Dx=1"), "-agentpath:/l/a.so -Xss2m -Dx=1");
  EXPECT_EQ(java_tool_options("/l/a.so", {}, nullptr), "-agentpath:/l/a.so");
}

TEST(JavaLaunch, JvmOptionsNeedJavaProfiling) {
  EXPECT_FALSE(parse_options({"-J", "-Xmx1g", "./app"}).options);
  EXPECT_FALSE(parse_options({"-j", "off", "-J", "-Xmx1g", "java", "Hot"}).options);
  EXPECT_TRUE(parse_options({"-J", "-Xmx1g", "java", "Hot"}).options);
  EXPECT_TRUE(parse_options({"-j", "on", "-J", "-Xmx1g", "./app"}).options);
  EXPECT_EQ(parse_options({"java", "Hot"}).options->java, "auto");
}

}  // namespace
}  // namespace erkit::collect
