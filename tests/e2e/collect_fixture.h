// Shared fixture of the collect_* end-to-end tests: a fresh working directory, collect and
// er_print run in it, and the experiments read back with the reader.
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "e2e_util.h"
#include "reader/experiment.h"

namespace erkit::e2e {

class CollectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = make_workdir(std::string("collect_") + info->name());
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  RunResult collect(const std::string& args) { return run("cd " + dir_ + " && " + bin("collect") + " " + args); }
  RunResult er_print(const std::string& args) { return run("cd " + dir_ + " && " + bin("er_print") + " " + args); }
  // The purpose-built program that starts descendants and ends in every way.
  std::string family() const { return program("lifecycle_family"); }
  std::string path(const std::string& rel) const { return dir_ + "/" + rel; }
  bool exists(const std::string& rel) const { return std::filesystem::exists(path(rel)); }
  std::string read(const std::string& rel) const {
    std::ifstream in(path(rel));
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::optional<reader::Experiment> open(const std::string& rel) {
    auto r = reader::open_experiment(path(rel));
    EXPECT_TRUE(r.experiment) << r.error;
    return std::move(r.experiment);
  }
  // Exclusive user CPU seconds per function of one experiment (er_print -functions).
  std::map<std::string, double> user_seconds(const std::string& experiment) {
    auto p = er_print("-functions " + experiment);
    EXPECT_EQ(p.status, 0) << p.err;
    std::map<std::string, double> out;
    for (const auto& [name, row] : parse_function_list(p.out))
      if (!row.values.empty()) out[name] = row.values[0];
    return out;
  }
  std::string dir_;
};

// A function's time: its name may carry a compiler suffix (burn_a.constprop.0).
inline double seconds_of(const std::map<std::string, double>& rows, const std::string& fn) {
  double s = 0;
  for (const auto& [name, v] : rows)
    if (name == fn || name.rfind(fn + ".", 0) == 0) s += v;
  return s;
}

}  // namespace erkit::e2e
