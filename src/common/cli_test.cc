#include "common/cli.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace erkit::common {
namespace {

std::string run(const ToolInfo& t, const std::vector<std::string>& args, int* rc) {
  char* buf = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  *rc = handle_standard_options(t, args, f);
  std::fclose(f);
  std::string s(buf, len);
  free(buf);
  return s;
}

TEST(Cli, HelpPrintsUsageAndExitsZero) {
  ToolInfo t{"er_demo", "Usage: er_demo [-x] file\n", {"-x"}};
  int rc = -2;
  std::string out = run(t, {"file", "--help"}, &rc);
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(out.rfind("Usage: er_demo [-x] file\n", 0), 0u) << out;
  EXPECT_NE(out.find("--version"), std::string::npos);
  EXPECT_NE(out.find("man er_demo"), std::string::npos);
}

TEST(Cli, VersionAndNone) {
  ToolInfo t{"er_demo", "Usage: er_demo\n", {}};
  int rc = -2;
  EXPECT_EQ(run(t, {"--version"}, &rc).rfind("er_demo: erkit ", 0), 0u);
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(run(t, {"-x", "file"}, &rc), "");
  EXPECT_EQ(rc, -1);
}

TEST(Cli, DoubleDashEndsOptions) {
  EXPECT_EQ(find_standard_option({"--", "--help"}), StandardOption::None);
  EXPECT_EQ(find_standard_option({"prog", "--help"}, 0), StandardOption::None);
  EXPECT_EQ(find_standard_option({"--version", "--help"}), StandardOption::Help);
}

TEST(Cli, EditDistance) {
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("--hepl", "--help"), 1u);  // transposition
  EXPECT_EQ(edit_distance("same", "same"), 0u);
}

TEST(Cli, DidYouMean) {
  std::vector<std::string> opts = {"-functions", "-callers-callees", "-limit", "-metrics"};
  EXPECT_EQ(closest_match("-functoins", opts), "-functions");
  EXPECT_EQ(closest_match("-limt", opts), "-limit");
  EXPECT_EQ(closest_match("-callers", opts), "-callers-callees");  // unique prefix
  EXPECT_EQ(closest_match("-zzz", opts), "");
  EXPECT_EQ(unknown_option("--hlep", {}), "unknown option '--hlep' (did you mean '--help'?)");
  EXPECT_EQ(unknown_option("-q", {"-V"}), "unknown option '-q'");
}

}  // namespace
}  // namespace erkit::common
