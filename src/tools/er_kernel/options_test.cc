#include "tools/er_kernel/options.h"

#include <gtest/gtest.h>

namespace erkit::er_kernel {
namespace {

ParseResult parse(std::vector<std::string> a) { return parse_options(a); }

TEST(ErKernelOptions, ManualForms) {
  auto r = parse({"-p", "on", "-t", "5"});
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_EQ(r.options->interval_ns, 10007000u);
  EXPECT_EQ(r.options->duration_s, 5);
  EXPECT_TRUE(r.options->load.empty());
  r = parse({"-p", "hi", "-q", "0", "./load", "-x"});
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_EQ(r.options->interval_ns, 997000u);
  EXPECT_EQ(r.options->quiet_s, 0);
  EXPECT_EQ(r.options->load, (std::vector<std::string>{"./load", "-x"}));
  EXPECT_FALSE(r.options->with_collect);
  r = parse({"-p", "lo", "collect", "-p", "hi", "./a.out"});
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_TRUE(r.options->with_collect);
  EXPECT_EQ(r.options->load.size(), 4u);
  r = parse({"-p", "on", "-T", "12/13", "-T", "0/2"});
  ASSERT_TRUE(r.options) << r.error;
  ASSERT_EQ(r.options->threads.size(), 2u);
  EXPECT_EQ(r.options->threads[0], std::make_pair(12u, 13u));
  EXPECT_EQ(r.options->threads[1], std::make_pair(0u, 2u));
  r = parse({"-p", "2.5", "-o", "k.er", "-d", "/tmp", "-g", "g.erg", "-n", "-v"});
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_EQ(r.options->interval_ns, 2500000u);
  EXPECT_TRUE(r.options->dry_run);
  EXPECT_EQ(r.options->output, "k.er");
}

TEST(ErKernelOptions, HelpAndVersion) {
  EXPECT_TRUE(parse({"--help"}).options->help);
  EXPECT_TRUE(parse({"-h"}).options->help);
  EXPECT_TRUE(parse({"--version"}).options->version);
  EXPECT_TRUE(parse({"-V"}).options->version);
}

TEST(ErKernelOptions, BadInputIsRefusedWithAReason) {
  struct Case {
    std::vector<std::string> args;
    const char* says;
  } cases[] = {
      {{}, "nothing to do"},
      {{"-p"}, "-p needs a value"},
      {{"-p", "off"}, "-p off"},
      {{"-p", "fast"}, "bad -p value"},
      {{"-p", "on", "-t", "-1"}, "bad -t value"},
      {{"-p", "on", "-T", "12"}, "bad -T value"},
      {{"-p", "on", "-T", "12/0"}, "bad -T value"},
      {{"-p", "on", "-T", "a/b"}, "bad -T value"},
      {{"-p", "on", "-o", "x"}, "must end in .er"},
      {{"-p", "on", "-g", "x"}, "must end in .erg"},
      {{"-p", "on", "-Z"}, "unknown option"},
      {{"-p", "on", "collect"}, "collect needs a load"},
  };
  for (const auto& c : cases) {
    auto r = parse(c.args);
    EXPECT_FALSE(r.options);
    EXPECT_NE(r.error.find(c.says), std::string::npos) << r.error;
  }
}

}  // namespace
}  // namespace erkit::er_kernel
