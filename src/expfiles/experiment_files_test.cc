#include "expfiles/experiment_files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "expfiles/test_tree.h"

namespace erkit::expfiles {
namespace {
namespace fs = std::filesystem;
using namespace test;

TEST(Classify, RecognisesExperimentsAndGroupsAndNothingElse) {
  std::string d = scratch_dir("classify");
  make_experiment(d + "/a.er");
  make_group(d + "/g.erg", {"a.er"});
  write_file(d + "/noext/log", "erkit-experiment-log 1\n");
  write_file(d + "/nolog.er/profile", "x");
  write_file(d + "/foreign.er/log", "something else\n");
  write_file(d + "/bad.erg", "not a group\n");
  write_file(d + "/file.txt", "x");
  fs::create_directory_symlink(d + "/a.er", d + "/link.er");
  EXPECT_EQ(classify(d + "/a.er").kind, PathKind::Experiment);
  EXPECT_EQ(classify(d + "/a.er/").kind, PathKind::Experiment);
  EXPECT_EQ(classify(d + "/g.erg").kind, PathKind::Group);
  EXPECT_EQ(classify(d + "/missing.er").kind, PathKind::Missing);
  for (const char* other : {"/noext", "/nolog.er", "/foreign.er", "/bad.erg", "/file.txt", "/link.er"}) {
    Classified c = classify(d + other);
    EXPECT_EQ(c.kind, PathKind::Other) << other;
    EXPECT_FALSE(c.why.empty()) << other;
  }
  fs::remove_all(d);
}

TEST(Group, MembersResolveAgainstTheGroupDirectory) {
  std::string d = scratch_dir("group");
  make_group(d + "/g.erg", {"a.er", "# comment", "", "/abs/b.er", "sub/c.er"});
  GroupFile g;
  std::string err;
  ASSERT_TRUE(read_group(d + "/g.erg", &g, &err)) << err;
  ASSERT_EQ(g.paths.size(), 3u);
  EXPECT_EQ(g.paths[0], d + "/a.er");
  EXPECT_EQ(g.paths[1], "/abs/b.er");
  EXPECT_EQ(g.paths[2], d + "/sub/c.er");
  EXPECT_EQ(g.members[2], "sub/c.er");
  EXPECT_FALSE(write_group(d + "/g.erg", {"x.er"}, &err)) << "an existing group must not be overwritten";
  ASSERT_TRUE(write_group(d + "/h.erg", {"x.er", "y.er"}, &err)) << err;
  EXPECT_EQ(read_file(d + "/h.erg"), "#analyzer experiment group\nx.er\ny.er\n");
  fs::remove_all(d);
}

TEST(Descendant, ParentIsTheEnclosingExperiment) {
  std::string d = scratch_dir("desc");
  make_experiment(d + "/a.er", true);
  EXPECT_EQ(parent_experiment(d + "/a.er/_f1.er"), d + "/a.er");
  EXPECT_EQ(parent_experiment(d + "/a.er"), "");
  fs::remove_all(d);
}

TEST(Copy, CopiesTheWholeTreeAndNeverReplaces) {
  std::string d = scratch_dir("copy");
  make_experiment(d + "/a.er", true);
  fs::create_symlink("/usr/lib/x.so", d + "/a.er/archives/link");
  std::string err;
  ASSERT_TRUE(copy_experiment(d + "/a.er", d + "/b.er", &err)) << err;
  EXPECT_EQ(read_file(d + "/b.er/profile"), "data of " + d + "/a.er");
  EXPECT_EQ(read_file(d + "/b.er/_f1.er/profile"), "child data");
  EXPECT_EQ(read_file(d + "/b.er/archives/a.archive"), "archive");
  EXPECT_TRUE(fs::is_symlink(d + "/b.er/archives/link"));
  EXPECT_EQ(fs::read_symlink(d + "/b.er/archives/link"), "/usr/lib/x.so");
  // Even an empty directory at the destination is not replaced.
  fs::create_directory(d + "/c.er");
  EXPECT_FALSE(copy_experiment(d + "/a.er", d + "/c.er", &err));
  EXPECT_TRUE(fs::is_empty(d + "/c.er"));
  // No temporary copy is left behind.
  for (const auto& e : fs::directory_iterator(d)) EXPECT_EQ(e.path().filename().string().find(".er_tmp"), std::string::npos);
  fs::remove_all(d);
}

TEST(Copy, DescendantTakesItsParentsArchives) {
  std::string d = scratch_dir("copydesc");
  make_experiment(d + "/a.er", true);
  std::string err;
  ASSERT_TRUE(copy_experiment(d + "/a.er/_f1.er", d + "/child.er", &err, d + "/a.er/archives")) << err;
  EXPECT_EQ(read_file(d + "/child.er/archives/a.archive"), "archive");
  EXPECT_EQ(read_file(d + "/child.er/profile"), "child data");
  fs::remove_all(d);
}

TEST(MoveAndRemove, MoveRenamesAndRemoveDeletes) {
  std::string d = scratch_dir("move");
  make_experiment(d + "/a.er", true);
  std::string err;
  ASSERT_TRUE(move_experiment(d + "/a.er", d + "/b.er", &err)) << err;
  EXPECT_FALSE(fs::exists(d + "/a.er"));
  EXPECT_EQ(read_file(d + "/b.er/_f1.er/profile"), "child data");
  make_experiment(d + "/c.er");
  EXPECT_FALSE(move_experiment(d + "/b.er", d + "/c.er", &err));
  EXPECT_TRUE(fs::exists(d + "/b.er/log"));
  ASSERT_TRUE(remove_experiment(d + "/b.er", &err)) << err;
  EXPECT_FALSE(fs::exists(d + "/b.er"));
  fs::remove_all(d);
}

TEST(Move, AcrossFileSystemsCopiesThenRemoves) {
  // /dev/shm is a tmpfs: a different file system from /tmp on most machines.
  struct stat a, b;
  if (stat("/dev/shm", &a) != 0 || stat("/tmp", &b) != 0 || a.st_dev == b.st_dev) GTEST_SKIP() << "no second file system";
  std::string d = scratch_dir("xdev");
  make_experiment(d + "/a.er", true);
  std::string dst = "/dev/shm/erkit_xdev_" + std::to_string(getpid()) + ".er";
  fs::remove_all(dst);
  std::string err;
  ASSERT_TRUE(move_experiment(d + "/a.er", dst, &err)) << err;
  EXPECT_FALSE(fs::exists(d + "/a.er"));
  EXPECT_EQ(read_file(dst + "/_f1.er/profile"), "child data");
  fs::remove_all(dst);
  fs::remove_all(d);
}

}  // namespace
}  // namespace erkit::expfiles
