// Shared fixture of the aarch64 tests (label aarch64, docs/platforms.md): aarch64 programs and
// the aarch64 collector, cross-built by the sub-build of tests/aarch64/CMakeLists.txt, run by the
// host's collect under qemu-aarch64; the host's er_print reads the experiments.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "e2e_util.h"

namespace erkit::e2e {

class Aarch64 : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = make_workdir(std::string("aarch64_") + info->name());
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  static std::string arm_program(const std::string& name) { return std::string(ERKIT_AARCH64_PROGRAMS_DIR) + "/" + name; }
  RunResult collect(const std::string& args) { return run("cd " + dir_ + " && " + bin("collect") + " " + args); }
  RunResult er_print(const std::string& args) { return run("cd " + dir_ + " && " + bin("er_print") + " " + args); }
  std::string read(const std::string& rel) const {
    std::ifstream in(dir_ + "/" + rel);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  // er_print -functions of `experiment`, rows by name; the listing is kept for messages.
  std::map<std::string, FunctionRow> functions(const std::string& experiment, const std::string& extra = "") {
    auto p = er_print(extra + " -functions " + experiment);
    EXPECT_EQ(p.status, 0) << p.err;
    listing_ = p.out;
    return parse_function_list(p.out);
  }
  // Column `col` of a function's row (0 excl. user s, 2 incl. user s), 0 when absent.
  static double at(const std::map<std::string, FunctionRow>& rows, const std::string& fn, size_t col = 0) {
    auto it = rows.find(fn);
    return it == rows.end() || it->second.values.size() <= col ? 0 : it->second.values[col];
  }
  std::string dir_;
  std::string listing_;
};

// Sampling error of a function's exclusive time: erkit weights each sample by the CPU time the
// thread really used, so the totals are exact and only the attribution is statistical. A
// function of true time t sampled every `tick` s gets n = t / tick samples; the samples that
// straddle its two boundaries move at most one tick each, the rest is within 4 standard
// deviations of a binomial count (4 * sqrt(n) ticks).
inline double sampling_margin(double t, double tick) {
  double n = t / tick;
  return (2 + 4 * std::sqrt(n > 1 ? n : 1)) * tick;
}

}  // namespace erkit::e2e
