#include "collect/naming.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>

namespace erkit::collect {
namespace {

class NamingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/erkit_naming_XXXXXX";
    dir_ = mkdtemp(tmpl);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST_F(NamingTest, DefaultNamesAdvance) {
  EXPECT_EQ(create_experiment_dir("", dir_).path, dir_ + "/test.1.er");
  EXPECT_EQ(create_experiment_dir("", dir_).path, dir_ + "/test.2.er");
  EXPECT_EQ(preview_experiment_name("", dir_).path, dir_ + "/test.3.er");
  EXPECT_EQ(create_experiment_dir("mytest.5.er", dir_).path, dir_ + "/mytest.5.er");
  EXPECT_EQ(create_experiment_dir("mytest.5.er", dir_).path, dir_ + "/mytest.6.er");
}

TEST_F(NamingTest, NameWithoutCounterMustNotExist) {
  EXPECT_EQ(create_experiment_dir("plain.er", dir_).path, dir_ + "/plain.er");
  auto r = create_experiment_dir("plain.er", dir_);
  EXPECT_TRUE(r.path.empty());
  EXPECT_NE(r.error.find("already exists"), std::string::npos);
}

TEST_F(NamingTest, MissingDirectory) {
  auto r = create_experiment_dir("", dir_ + "/nope");
  EXPECT_NE(r.error.find("does not exist"), std::string::npos);
}

TEST_F(NamingTest, RanksNameTheirOwnExperiments) {
  EXPECT_EQ(preview_rank_experiment_name("test", 3, dir_).path, dir_ + "/test.3.er");
  EXPECT_EQ(create_rank_experiment_dir("test", 3, dir_).path, dir_ + "/test.3.er");
  EXPECT_EQ(create_rank_experiment_dir("test", 0, dir_).path, dir_ + "/test.0.er");
  // An earlier run's name is taken: the rank draws from its own numbered names.
  EXPECT_EQ(preview_rank_experiment_name("test", 3, dir_).path, dir_ + "/test.3.1.er");
  EXPECT_EQ(create_rank_experiment_dir("test", 3, dir_).path, dir_ + "/test.3.1.er");
  EXPECT_EQ(create_rank_experiment_dir("test", 3, dir_).path, dir_ + "/test.3.2.er");
  EXPECT_EQ(create_rank_experiment_dir("run", 1, dir_).path, dir_ + "/run.1.er");
  EXPECT_NE(create_rank_experiment_dir("test", 1, dir_ + "/nope").error.find("does not exist"), std::string::npos);
}

TEST_F(NamingTest, RankStemAndLauncherRank) {
  EXPECT_EQ(rank_stem(""), "test");
  EXPECT_EQ(rank_stem("ring.erg"), "ring");
  EXPECT_EQ(rank_stem("runs/ring.erg"), "ring");
  const char* vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"};
  for (const char* v : vars) unsetenv(v);
  EXPECT_EQ(launcher_rank(), -1);
  setenv("SLURM_PROCID", "9", 1);
  EXPECT_EQ(launcher_rank(), -1);  // a batch script, not a step of several tasks
  setenv("SLURM_STEP_NUM_TASKS", "16", 1);
  EXPECT_EQ(launcher_rank(), 9);
  setenv("PMIX_RANK", "7", 1);
  EXPECT_EQ(launcher_rank(), 7);
  setenv("OMPI_COMM_WORLD_RANK", "x", 1);  // not a number: the next variable counts
  EXPECT_EQ(launcher_rank(), 7);
  setenv("OMPI_COMM_WORLD_RANK", "2", 1);
  EXPECT_EQ(launcher_rank(), 2);
  for (const char* v : vars) unsetenv(v);
  unsetenv("SLURM_STEP_NUM_TASKS");
}

}  // namespace
}  // namespace erkit::collect
