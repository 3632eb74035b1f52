// Test fixtures for the exporters: a synthetic experiment loaded into a Profile, the
// profile's per-function truth, and running helper scripts.
#pragma once
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "folded_experiment.h"
#include "model/profile.h"
#include "model/experiment_set.h"
#include "views/function_views.h"

namespace erkit::exporters::test {

inline std::unique_ptr<model::Profile> load_folded(const std::string& dir, const std::vector<std::string>& folded,
                                                   const erkit::testing::FoldedOptions& opts = {}) {
  std::string err = erkit::testing::write_folded_experiment(dir, folded, opts);
  EXPECT_EQ(err, "");
  auto p = std::make_unique<model::Profile>();
  model::LoadedSet set;
  EXPECT_TRUE(model::load_experiment_set(*p, dir, {}, &set, &err)) << err;
  return p;
}

// Exclusive and inclusive values of one metric per function name, as er_print computes them.
struct Truth {
  std::map<std::string, int64_t> excl, incl;
};
inline Truth truth(const model::Profile& p, uint32_t metric) {
  Truth t;
  const auto& fm = p.function_metrics();
  for (model::FuncId f : p.functions_with_data()) {
    if (f == p.functions().total()) continue;
    std::string n = views::function_display_name(p.functions(), f, {});
    if (fm.excl[f][metric]) t.excl[n] = fm.excl[f][metric];
    if (fm.incl[f][metric]) t.incl[n] = fm.incl[f][metric];
  }
  return t;
}

inline void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// Runs a command, returning its stdout; status in *status.
inline std::string run_command(const std::string& cmd, int* status) {
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  *status = pclose(f);
  return out;
}

inline bool have_program(const std::string& name) {
  int st = 0;
  run_command("command -v " + name + " >/dev/null 2>&1", &st);
  return st == 0;
}

inline std::string testdata(const std::string& name) { return std::string(ERKIT_EXPORTERS_TESTDATA) + "/" + name; }

class ExportTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = erkit::testing::temp_path("export"); }
  void TearDown() override {
    if (!HasFailure()) {
      std::filesystem::remove_all(dir_);
      std::filesystem::remove_all(dir_ + ".src");
      std::filesystem::remove_all(dir_ + ".out");
    }
  }
  std::string out_path(const std::string& name) {
    std::filesystem::create_directories(dir_ + ".out");
    return dir_ + ".out/" + name;
  }
  std::string dir_;
};

}  // namespace erkit::exporters::test
