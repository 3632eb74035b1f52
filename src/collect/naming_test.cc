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

}  // namespace
}  // namespace erkit::collect
