// End-to-end: er_print's compare mode (issue 24) on one program built twice, where two()
// does exactly twice the work in the second build: a pair of experiments (delta and ratio
// against what the kernel measured of each call) and a group of 5 runs per side (means,
// spread across runs, noise estimate and the rows whose change exceeds it).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "e2e_util.h"
#include "views/json.h"

namespace erkit::e2e {
namespace {

constexpr int kRuns = 5;
constexpr const char* kWork = "60000000";

class Compare : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = make_workdir("compare");
    std::ofstream a(dir_ + "/a.erg"), b(dir_ + "/b.erg");
    a << "#analyzer experiment group\n";
    b << "#analyzer experiment group\n";
    for (int i = 1; i <= kRuns; ++i) {
      for (const char* side : {"a", "b"}) {
        std::string name = fmt::format("{}{}", side, i);
        auto r = sh(fmt::format("{} -p hi -o {}.er {} {} {}.txt", bin("collect"), name,
                                program(side[0] == 'a' ? "compare_build_1x" : "compare_build_2x"), kWork, name));
        ASSERT_EQ(r.status, 0) << r.err;
        (side[0] == 'a' ? a : b) << name << ".er\n";
      }
    }
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }
  static RunResult sh(const std::string& cmd) { return run("cd " + dir_ + " && " + cmd); }
  static RunResult er_print(const std::string& args) {
    return sh("HOME=" + dir_ + " " + bin("er_print") + " " + args);
  }
  static std::map<std::string, double> truth(const std::string& name) {
    return read_seconds_by_name(dir_ + "/" + name + ".txt");
  }
  static json::Value json_report(const std::string& args) {
    auto r = er_print("-json " + args);
    EXPECT_EQ(r.status, 0) << r.err;
    // One JSON object per line, one per command: the function list's.
    std::istringstream in(r.out);
    json::Value v;
    for (std::string l; std::getline(in, l);) {
      if (l.find("\"command\":\"functions\"") == std::string::npos) continue;
      std::string error;
      EXPECT_TRUE(json::parse(l, &v, &error)) << error << "\n" << l;
    }
    return v["data"];
  }
  // The row of `name` in a compare report's data.
  static const json::Value* row(const json::Value& data, const std::string& name) {
    const json::Value& rows = data["rows"];
    for (size_t i = 0; i < rows.size(); ++i)
      if (rows[i]["name"].as_string() == name) return &rows[i];
    ADD_FAILURE() << "no row " << name;
    return nullptr;
  }
  static double margin(const std::vector<std::string>& exps) {
    double m = 0.002;
    for (const auto& e : exps) m += 2 * largest_cpu_sample_seconds(dir_ + "/" + e);
    return m;
  }
  static inline std::string dir_;
};

// Two experiments of the two builds: [1] is the first, [2] the difference or ratio to it;
// each is what the kernel measured of the calls, within the sampling margin.
TEST_F(Compare, TwoBuildsDeltaAndRatioMatchTheKernel) {
  auto ta = truth("a1"), tb = truth("b1");
  ASSERT_GT(ta["two"], 0);
  ASSERT_GT(tb["two"], 0);
  const double m = margin({"a1.er", "b1.er"});
  json::Value d = json_report("-metrics e.user:i.user -compare delta -functions a1.er b1.er");
  EXPECT_EQ(d["mode"].as_string(), "delta");
  ASSERT_EQ(d["sides"].size(), 2u);
  EXPECT_EQ(d["sides"][0]["path"].as_string(), "a1.er");
  EXPECT_EQ(d["rows"][0]["name"].as_string(), "<Total>");
  for (const char* fn : {"one", "two"}) {
    const json::Value* r = row(d, fn);
    ASSERT_TRUE(r);
    const json::Value& excl = (*r)["values"][0];
    EXPECT_NEAR(excl[0]["mean"].as_double() / 1e9, ta[fn], m) << fn;
    EXPECT_NEAR(excl[1]["mean"].as_double() / 1e9, tb[fn], m) << fn;
    EXPECT_NEAR(excl[1]["delta"].as_double() / 1e9, tb[fn] - ta[fn], m) << fn;
    EXPECT_NEAR(excl[1]["ratio"].as_double(), tb[fn] / ta[fn], m / ta[fn] * (1 + tb[fn] / ta[fn])) << fn;
    EXPECT_TRUE(excl[1]["noise"].is_null()) << "one run per side has no spread";
  }
  // The function two() changed by the build: about 2x relative to one(), which did not change.
  // Each ratio is checked against the kernel above; a loaded machine can stretch one run's CPU
  // time as a whole (two() at 2.38 was seen under ASan in CI), so here the two are compared with
  // each other.
  const double two_ratio = (*row(d, "two"))["values"][0][1]["ratio"].as_double();
  const double one_ratio = (*row(d, "one"))["values"][0][1]["ratio"].as_double();
  EXPECT_GT(two_ratio, 1.5 * one_ratio);
  EXPECT_LT(two_ratio, 3.0 * one_ratio);

  // The text report: [1] in seconds, [2] as a ratio; main's inclusive time matched across
  // the two executables (different files, one source).
  auto t = er_print("-metrics e.user:i.user -compare ratio -functions a1.er b1.er");
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_NE(t.out.find("Compare: ratio (each side divided by [1])"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("[1] a1.er\n"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("[2] ratio"), std::string::npos) << t.out;
  double ratio = -1;
  std::istringstream in(t.out);
  for (std::string l; std::getline(in, l);) {
    if (l.size() < 5 || l.substr(l.size() - 5) != "  two") continue;
    std::istringstream cells(l);
    std::string base, second;
    cells >> base >> second;  // [1] in seconds, then [2] as a ratio
    ratio = std::stod(second);
  }
  EXPECT_NEAR(ratio, tb["two"] / ta["two"], 0.01 + m / ta["two"] * 3) << t.out;
  EXPECT_EQ(t.out.find("main (compare_build"), std::string::npos) << "main matched across builds:\n" << t.out;
  // compare off: the ordinary function list of both experiments together.
  auto off = er_print("-compare off -functions a1.er b1.er");
  EXPECT_EQ(off.out.find("Compare:"), std::string::npos) << off.out;
  // A bad mode is an error that names it.
  auto bad = er_print("-compare sideways -functions a1.er b1.er");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.err.find("unknown mode 'sideways'"), std::string::npos) << bad.err;
}

// A group of 5 runs per side: means per run, the spread across runs (checked against each
// run's own function list), the noise of the difference and two()'s change marked beyond it.
TEST_F(Compare, GroupsOfRunsShowNoiseEstimate) {
  json::Value d = json_report("-metrics e.user -compare delta -functions a.erg b.erg");
  ASSERT_EQ(d["sides"].size(), 2u);
  EXPECT_EQ(d["sides"][0]["runs"].as_int(), kRuns);
  EXPECT_EQ(d["sides"][1]["runs"].as_int(), kRuns);
  for (const char* fn : {"one", "two"}) {
    // Ground truth of mean and spread: each run's own exclusive user time.
    double mean[2] = {0, 0}, var[2] = {0, 0};
    std::vector<double> per[2];
    for (int s = 0; s < 2; ++s) {
      for (int i = 1; i <= kRuns; ++i) {
        auto rows = parse_json_function_rows(
            er_print(fmt::format("-json -metrics e.user -functions {}{}.er", s ? "b" : "a", i)).out);
        per[s].push_back(rows.count(fn) ? rows[fn][0] : 0);
        mean[s] += per[s].back() / kRuns;
      }
      for (double x : per[s]) var[s] += (x - mean[s]) * (x - mean[s]) / (kRuns - 1);
    }
    const json::Value* r = row(d, fn);
    ASSERT_TRUE(r);
    const json::Value& cells = (*r)["values"][0];
    EXPECT_NEAR(cells[0]["mean"].as_double(), mean[0], 1) << fn;
    EXPECT_NEAR(cells[1]["mean"].as_double(), mean[1], 1) << fn;
    EXPECT_NEAR(cells[0]["sd"].as_double(), std::sqrt(var[0]), 1) << fn;
    EXPECT_NEAR(cells[1]["sd"].as_double(), std::sqrt(var[1]), 1) << fn;
    EXPECT_NEAR(cells[1]["delta"].as_double(), mean[1] - mean[0], 1) << fn;
    const double noise = 2 * std::sqrt(var[0] / kRuns + var[1] / kRuns);
    EXPECT_NEAR(cells[1]["noise"].as_double(), noise, 1) << fn;
    EXPECT_EQ(cells[1]["significant"].as_bool(), std::fabs(mean[1] - mean[0]) > noise) << fn;
  }
  // two() doubled (tens of ms) while runs of one build differ by a few ms: beyond the noise.
  EXPECT_TRUE((*row(d, "two"))["values"][0][1]["significant"].as_bool());
  auto t = er_print("-metrics e.user -compare delta -functions a.erg b.erg");
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_NE(t.out.find("[1] a.erg (5 runs: mean per run)"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("noise"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("!two\n"), std::string::npos) << t.out;
}

}  // namespace
}  // namespace erkit::e2e
