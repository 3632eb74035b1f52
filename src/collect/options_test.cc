#include "collect/options.h"

#include <gtest/gtest.h>

#include <csignal>

namespace erkit::collect {
namespace {

Options parse_ok(std::vector<std::string> a) {
  auto r = parse_options(a);
  EXPECT_TRUE(r.options) << r.error;
  return r.options ? *r.options : Options{};
}

std::string parse_err(std::vector<std::string> a) {
  auto r = parse_options(a);
  EXPECT_FALSE(r.options);
  return r.error;
}

TEST(ClockInterval, NamedValues) {
  EXPECT_EQ(parse_clock_interval("on", 1000, nullptr), 10007000u);
  EXPECT_EQ(parse_clock_interval("hi", 1000, nullptr), 997000u);
  EXPECT_EQ(parse_clock_interval("high", 1000, nullptr), 997000u);
  EXPECT_EQ(parse_clock_interval("lo", 1000, nullptr), 100003000u);
  EXPECT_EQ(parse_clock_interval("low", 1000, nullptr), 100003000u);
  EXPECT_EQ(parse_clock_interval("off", 1000, nullptr), 0u);
}

TEST(ClockInterval, ValuesAndUnits) {
  EXPECT_EQ(parse_clock_interval("5", 1000, nullptr), 5000000u);
  EXPECT_EQ(parse_clock_interval("2.5m", 1000, nullptr), 2500000u);
  EXPECT_EQ(parse_clock_interval("500u", 1000, nullptr), 500000u);
  EXPECT_EQ(parse_clock_interval("1.2345", 1000, nullptr), 1234000u);  // rounded down to 1 us
  std::string w;
  EXPECT_EQ(parse_clock_interval("0.1u", 1000, &w), 1000u);
  EXPECT_FALSE(w.empty());
  EXPECT_FALSE(parse_clock_interval("1001", 1000, nullptr));  // above 1 s
  EXPECT_FALSE(parse_clock_interval("abc", 1000, nullptr));
  EXPECT_FALSE(parse_clock_interval("-3", 1000, nullptr));
}

TEST(Signals, Names) {
  EXPECT_EQ(parse_signal("SIGUSR1"), SIGUSR1);
  EXPECT_EQ(parse_signal("usr2"), SIGUSR2);
  EXPECT_EQ(parse_signal("10"), 10);
  EXPECT_EQ(parse_signal("SIGNOPE"), 0);
  EXPECT_EQ(signal_name(SIGUSR1), "SIGUSR1");
}

TEST(Options, DefaultsAndTarget) {
  Options o = parse_ok({"./app", "-x", "1"});
  EXPECT_EQ(o.clock_interval_ns, 10007000u);
  ASSERT_EQ(o.target.size(), 3u);
  EXPECT_EQ(o.target[1], "-x");  // options after the program belong to it
}

TEST(Options, Errors) {
  EXPECT_NE(parse_err({"-o", "foo", "./app"}).find(".er"), std::string::npos);
  EXPECT_NE(parse_err({"-g", "foo", "./app"}).find(".erg"), std::string::npos);
  EXPECT_NE(parse_err({"-Q", "./app"}).find("unknown option"), std::string::npos);
  EXPECT_NE(parse_err({"-l", "USR1", "-y", "SIGUSR1", "./app"}).find("different"), std::string::npos);
  EXPECT_NE(parse_err({"-l", "SIGFOO", "./app"}).find("unknown signal"), std::string::npos);
  EXPECT_NE(parse_err({"-p"}).find("needs an argument"), std::string::npos);
  EXPECT_NE(parse_err({"-p", "on"}).find("no target"), std::string::npos);
  EXPECT_NE(parse_err({"-J", "-Xmx1g", "./app"}).find("-J"), std::string::npos);
}

TEST(Options, HwcAloneTurnsClockOff) {
  EXPECT_EQ(parse_ok({"-h", "cycles", "./app"}).clock_interval_ns, 0u);
  EXPECT_EQ(parse_ok({"-h", "cycles", "-p", "on", "./app"}).clock_interval_ns, 10007000u);
}

TEST(Options, ManyOptions) {
  Options o = parse_ok({"-p", "hi", "-S", "5", "-L", "unlimited", "-F", "all", "-y", "USR2,r", "-C", "a",
                        "-C", "b", "-A", "copy", "./app"});
  EXPECT_EQ(o.clock_interval_ns, 997000u);
  EXPECT_EQ(o.sample_interval_ms, 5000);
  EXPECT_EQ(o.size_limit_mb, 0u);
  EXPECT_EQ(o.follow, 2);
  EXPECT_EQ(o.pause_signal, SIGUSR2);
  EXPECT_TRUE(o.pause_signal_resume);
  EXPECT_EQ(o.comments.size(), 2u);
  EXPECT_EQ(o.archive, "copy");
}

TEST(Options, FollowRegexIsCheckedWithThePosixEngine) {
  auto o = parse_ok({"-F", "=^(ls|cat)$", "prog"});
  EXPECT_EQ(o.follow, 2);
  EXPECT_EQ(o.follow_regex, "^(ls|cat)$");
  EXPECT_NE(parse_err({"-F", "=(", "prog"}).find("bad -F regular expression"), std::string::npos);
  EXPECT_NE(parse_err({"-F", "=", "prog"}).find("bad -F value"), std::string::npos);
}

TEST(Options, SignalsTheCollectorCannotUse) {
  EXPECT_NE(parse_err({"-l", "SIGKILL", "prog"}).find("cannot be caught"), std::string::npos);
  EXPECT_NE(parse_err({"-y", "STOP", "prog"}).find("cannot be caught"), std::string::npos);
  EXPECT_NE(parse_err({"-l", "PROF", "prog"}).find("clock-profiling signal"), std::string::npos);
  EXPECT_EQ(unusable_signal(SIGUSR1), nullptr);
  auto o = parse_ok({"-l", "USR1", "-y", "SIGUSR2,r", "-x", "prog"});
  EXPECT_EQ(o.sample_signal, SIGUSR1);
  EXPECT_EQ(o.pause_signal, SIGUSR2);
  EXPECT_TRUE(o.pause_signal_resume);
  EXPECT_TRUE(o.stop_after_exec);
}

TEST(CollectOptions, GnuHelpVersionAndDoubleDash) {
  EXPECT_TRUE(parse_options({"--help"}).options->help);
  EXPECT_TRUE(parse_options({"-p", "hi", "--version"}).options->version_only);
  // After the program, --help belongs to the program.
  auto o = parse_ok({"./app", "--help"});
  EXPECT_FALSE(o.help);
  EXPECT_EQ(o.target, (std::vector<std::string>{"./app", "--help"}));
  o = parse_ok({"--", "-weird-name"});
  EXPECT_EQ(o.target, (std::vector<std::string>{"-weird-name"}));
  auto r = parse_options({"--hepl", "./app"});
  ASSERT_FALSE(r.options);
  EXPECT_EQ(r.error, "unknown option '--hepl' (did you mean '--help'?) (run 'collect --help' for usage)");
}

TEST(CollectOptions, ValueTableMatchesParser) {
  // Every option with a value in the completion table is one the parser takes with a value,
  // and the other way round: an option missing its value is an error.
  std::string letters;
  for (const auto& v : options_with_values()) {
    letters += v.letter;
    auto r = parse_options({std::string("-") + v.letter});
    ASSERT_FALSE(r.options) << v.letter;
    EXPECT_NE(r.error.find("needs an argument"), std::string::npos) << r.error;
    for (const auto& w : v.words) {
      EXPECT_TRUE(parse_options({std::string("-") + v.letter, w, "-n", "./app"}).options) << v.letter << " " << w;
    }
  }
  for (const auto& name : option_names()) {
    if (name.size() == 2 && letters.find(name[1]) == std::string::npos) {
      EXPECT_TRUE(parse_options({name, "./app"}).options) << name;
    }
  }
}

// Issue 16: -P <pid> instead of a program, -t <seconds> only with it.
TEST(Options, AttachTakesAPidAndADurationInsteadOfAProgram) {
  auto r = parse_options({"-P", "1234", "-t", "2.5", "-p", "hi"});
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_EQ(r.options->attach_pid, 1234);
  EXPECT_DOUBLE_EQ(r.options->attach_seconds, 2.5);
  EXPECT_TRUE(r.options->target.empty());
  for (const char* bad : {"abc", "0", "-5", "12x", ""}) {
    auto b = parse_options({"-P", bad});
    ASSERT_FALSE(b.options) << bad;
    EXPECT_NE(b.error.find("-P needs a process id"), std::string::npos) << b.error;
  }
  for (const char* bad : {"0", "-1", "x", "86401"}) {
    auto b = parse_options({"-P", "1", "-t", bad});
    ASSERT_FALSE(b.options) << bad;
    EXPECT_NE(b.error.find("bad -t value"), std::string::npos) << b.error;
  }
  auto t = parse_options({"-t", "2", "./app"});
  ASSERT_FALSE(t.options);
  EXPECT_NE(t.error.find("-t (a duration) needs -P <pid>"), std::string::npos) << t.error;
}

}  // namespace
}  // namespace erkit::collect
