// End-to-end: experiments recorded by gprofng itself (`gprofng collect app`, binutils 2.40+)
// opened by er_print read-only (issue 24): the functions and values of gprofng's own
// `display text -functions` and of er_print's function list agree, for a single-threaded and
// a multi-threaded program; the experiment is left as gprofng wrote it.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <regex>
#include <sstream>

#include "e2e_util.h"

namespace erkit::e2e {
namespace {

class GprofngImport : public ::testing::Test {
 protected:
  void SetUp() override {
    if (run("command -v gprofng").status != 0) GTEST_SKIP() << "gprofng is not installed (scripts/install-deps)";
    dir_ = make_workdir("gprofng_import");
  }
  void TearDown() override {
    if (!HasFailure() && !dir_.empty()) std::filesystem::remove_all(dir_);
  }
  RunResult sh(const std::string& cmd) { return run("cd " + dir_ + " && " + cmd); }

  // gprofng's function list: name -> (exclusive, inclusive) seconds.
  std::map<std::string, std::pair<double, double>> gprofng_functions(const std::string& exp) {
    auto r = sh("gprofng display text -metrics e.totalcpu:i.totalcpu -functions " + exp);
    EXPECT_EQ(r.status, 0) << r.err;
    std::map<std::string, std::pair<double, double>> rows;
    static const std::regex row(R"(^\s*([0-9.]+)\s+([0-9.]+)\s+(\S.*)$)");
    std::istringstream in(r.out);
    for (std::string l; std::getline(in, l);) {
      std::smatch m;
      if (std::regex_match(l, m, row)) rows[m[3].str()] = {std::stod(m[1].str()), std::stod(m[2].str())};
    }
    return rows;
  }

  // Every function gprofng names as a plain symbol has the same exclusive and inclusive time
  // in er_print's list (gprofng prints 3 decimals); <Total> agrees too.
  void expect_agreement(const std::string& exp) {
    auto theirs = gprofng_functions(exp);
    auto r = sh(bin("er_print") + " -json -metrics e.user:i.user -functions " + exp);
    ASSERT_EQ(r.status, 0) << r.err;
    auto ours = parse_json_function_rows(r.out);
    ASSERT_TRUE(theirs.count("<Total>")) << exp;
    ASSERT_GT(theirs["<Total>"].first, 0) << "gprofng recorded no samples";
    size_t compared = 0;
    for (const auto& [name, v] : theirs) {
      if (name != "<Total>" && name.find_first_of("<(@ ") != std::string::npos) continue;  // <static>@0x...
      ASSERT_TRUE(ours.count(name)) << name << " missing from er_print:\n" << r.out;
      EXPECT_NEAR(ours[name][0] / 1e9, v.first, 0.0006) << name;
      EXPECT_NEAR(ours[name][1] / 1e9, v.second, 0.0006) << name;
      ++compared;
    }
    EXPECT_GE(compared, 3u) << "<Total>, main and at least one worker function";
    // The other way round: every function of ours with time of its own is one gprofng lists
    // (by name where gprofng has the symbol).
    double excl_sum = 0;
    for (const auto& [name, v] : ours)
      if (name != "<Total>") excl_sum += v[0] / 1e9;
    EXPECT_NEAR(excl_sum, theirs["<Total>"].first, 0.0006 * ours.size());
  }
  std::string dir_;
};

TEST_F(GprofngImport, SingleThreadedFunctionListAgrees) {
  auto c = sh("gprofng collect app -o single.er " + program("work_ratio") + " 400000000 > collect.out 2>&1");
  ASSERT_EQ(c.status, 0) << c.err;
  auto before = sh("find single.er -type f -exec md5sum {} + | sort");
  expect_agreement("single.er");
  // Read-only: er_print wrote nothing into the experiment.
  EXPECT_EQ(sh("find single.er -type f -exec md5sum {} + | sort").out, before.out);
  // Other reports work on it too.
  auto cc = sh(bin("er_print") + " -callers-callees single.er");
  EXPECT_EQ(cc.status, 0) << cc.err;
  EXPECT_NE(cc.out.find("*main"), std::string::npos) << cc.out;
  auto info = sh(bin("er_print") + " -header single.er");
  EXPECT_EQ(info.status, 0) << info.err;
}

TEST_F(GprofngImport, MultiThreadedFunctionListAgrees) {
  // gprofng samples the main thread only, and a fraction of its time (docs/performance.md):
  // hot_main's 0.2 s may give it no sample at all; then the run is made again (at most 3).
  for (int attempt = 0; attempt < 3; ++attempt) {
    sh("rm -rf threads.er");
    auto c = sh("gprofng collect app -o threads.er " + program("threads4") + " truth.txt 300000000 > collect.out 2>&1");
    ASSERT_EQ(c.status, 0) << c.err;
    if (gprofng_functions("threads.er")["<Total>"].first > 0) break;
  }
  expect_agreement("threads.er");
}

TEST_F(GprofngImport, DamagedProfileIsReportedNotFatal) {
  auto c = sh("gprofng collect app -o dmg.er " + program("work_ratio") + " 100000000 > collect.out 2>&1");
  ASSERT_EQ(c.status, 0) << c.err;
  // A profile whose first packet is of a type gprofng does not write.
  ASSERT_EQ(sh("printf '\\070\\000\\167\\007' | dd of=dmg.er/profile bs=1 conv=notrunc 2>/dev/null").status, 0);
  auto r = sh(bin("er_print") + " -functions dmg.er");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("profile: "), std::string::npos) << r.err;
}

}  // namespace
}  // namespace erkit::e2e
