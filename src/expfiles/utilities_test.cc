#include "expfiles/utilities.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "expfiles/test_tree.h"

namespace erkit::expfiles {
namespace {
namespace fs = std::filesystem;
using namespace test;

struct Outcome {
  int status;
  std::string out, err;
};

Outcome call(const std::string& tool, std::vector<std::string> args) {
  char *ob = nullptr, *eb = nullptr;
  size_t on = 0, en = 0;
  FILE* out = open_memstream(&ob, &on);
  FILE* err = open_memstream(&eb, &en);
  int st = tool == "er_rm" ? run_remove(args, out, err)
                           : run_transfer(tool == "er_cp" ? TransferMode::Copy : TransferMode::Move, args, out, err);
  fclose(out);
  fclose(err);
  Outcome o{st, ob, eb};
  free(ob);
  free(eb);
  return o;
}

class Utilities : public ::testing::Test {
 protected:
  void SetUp() override { d = scratch_dir("util"); }
  void TearDown() override { fs::remove_all(d); }
  std::string p(const std::string& rel) { return d + "/" + rel; }
  std::string d;
};

TEST_F(Utilities, VersionAndUsage) {
  auto v = call("er_cp", {"-V"});
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out.rfind("er_cp: erkit ", 0), 0u) << v.out;
  EXPECT_EQ(call("er_rm", {"-v"}).out.rfind("er_rm: erkit ", 0), 0u);
  auto u = call("er_mv", {p("a.er")});
  EXPECT_EQ(u.status, 2);
  EXPECT_NE(u.err.find("Usage: er_mv"), std::string::npos);
  EXPECT_EQ(call("er_cp", {"-x", "a.er", "b.er"}).status, 2);
}

TEST_F(Utilities, CopyToANewNameAndRefuseAnExistingOne) {
  make_experiment(p("a.er"), true);
  auto r = call("er_cp", {p("a.er"), p("b.er")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(p("b.er/profile")), read_file(p("a.er/profile")));
  EXPECT_TRUE(fs::exists(p("b.er/_f1.er/log")));
  write_file(p("b.er/profile"), "changed");
  r = call("er_cp", {p("a.er"), p("b.er")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("already exists"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(p("b.er/profile")), "changed");
  r = call("er_cp", {p("a.er"), p("b.out")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("must end in .er"), std::string::npos) << r.err;
  r = call("er_cp", {p("a.er"), p("a.er/_x.er")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("inside itself"), std::string::npos) << r.err;
}

TEST_F(Utilities, ListIntoDirectoryChecksEveryNameBeforeCopyingAny) {
  make_experiment(p("a.er"));
  make_experiment(p("b.er"));
  fs::create_directories(p("dir"));
  make_experiment(p("dir/b.er"));
  auto r = call("er_cp", {p("a.er"), p("b.er"), p("dir")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("dir/b.er' already exists"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(p("dir/a.er"))) << "nothing is copied when one name clashes";
  fs::remove_all(p("dir/b.er"));
  r = call("er_cp", {p("a.er"), p("b.er"), p("dir")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(p("dir/a.er/log")) && fs::exists(p("dir/b.er/log")));
  r = call("er_mv", {p("a.er"), p("b.er"), p("nodir")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("does not exist"), std::string::npos);
}

TEST_F(Utilities, NonExperimentsAreRefusedAndUntouched) {
  write_file(p("src/main.c"), "int main;");
  write_file(p("fake.er/data"), "x");
  for (const char* tool : {"er_cp", "er_mv"}) {
    auto r = call(tool, {p("src"), p("x.er")});
    EXPECT_EQ(r.status, 1) << tool;
    EXPECT_NE(r.err.find("not"), std::string::npos) << r.err;
  }
  auto r = call("er_rm", {p("src"), p("fake.er")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("fake.er' has no experiment log"), std::string::npos) << r.err;
  EXPECT_EQ(call("er_rm", {"-f", p("src"), p("fake.er")}).status, 0);
  EXPECT_TRUE(fs::exists(p("src/main.c")) && fs::exists(p("fake.er/data"))) << "-f never removes non-experiments";
}

TEST_F(Utilities, MoveRenamesButKeepsDescendantsWithTheirParent) {
  make_experiment(p("a.er"), true);
  auto r = call("er_mv", {p("a.er/_f1.er"), p("child.er")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("descendant"), std::string::npos) << r.err;
  r = call("er_rm", {p("a.er/_f1.er")});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(fs::exists(p("a.er/_f1.er/log")));
  r = call("er_mv", {p("a.er"), p("b.er")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(p("a.er")));
  EXPECT_TRUE(fs::exists(p("b.er/_f1.er/log")) && fs::exists(p("b.er/archives/a.archive")));
  // A copy of a descendant on its own takes the parent's archives along.
  r = call("er_cp", {p("b.er/_f1.er"), p("child.er")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(p("child.er/archives/a.archive")));
}

TEST_F(Utilities, GroupsTravelWithTheirMembers) {
  make_experiment(p("a.er"));
  make_experiment(p("sub/b.er"));
  make_group(p("g.erg"), {"a.er", "sub/b.er"});
  fs::create_directories(p("out"));
  auto r = call("er_cp", {p("g.erg"), p("out")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(p("out/g.erg")), "#analyzer experiment group\na.er\nb.er\n");
  EXPECT_TRUE(fs::exists(p("out/a.er/log")) && fs::exists(p("out/b.er/log")));
  EXPECT_TRUE(fs::exists(p("a.er/log")) && fs::exists(p("g.erg")));
  // Renaming a group in place leaves members that are already there where they are.
  make_group(p("h.erg"), {"a.er"});
  r = call("er_mv", {p("h.erg"), p("renamed.erg")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(p("h.erg")));
  EXPECT_TRUE(fs::exists(p("a.er/log")));
  EXPECT_EQ(read_file(p("renamed.erg")), "#analyzer experiment group\na.er\n");
  // A group with a missing member is not copied.
  make_group(p("broken.erg"), {"a.er", "gone.er"});
  fs::create_directories(p("out2"));
  r = call("er_cp", {p("broken.erg"), p("out2")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("gone.er' does not exist"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(p("out2")));
}

TEST_F(Utilities, RemoveDeletesGroupMembersThenTheGroup) {
  make_experiment(p("a.er"));
  make_experiment(p("b.er"));
  make_experiment(p("c.er"));
  make_group(p("g.erg"), {"a.er", "b.er", "gone.er"});
  auto r = call("er_rm", {p("g.erg"), p("c.er")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(p("a.er")) || fs::exists(p("b.er")) || fs::exists(p("g.erg")) || fs::exists(p("c.er")));
  // A member that is not an experiment keeps the group file.
  write_file(p("keep.er/notes"), "x");
  make_experiment(p("d.er"));
  make_group(p("h.erg"), {"d.er", "keep.er"});
  r = call("er_rm", {p("h.erg")});
  EXPECT_EQ(r.status, 1);
  EXPECT_FALSE(fs::exists(p("d.er")));
  EXPECT_TRUE(fs::exists(p("h.erg")) && fs::exists(p("keep.er/notes")));
  r = call("er_rm", {p("nothing.er")});
  EXPECT_EQ(r.status, 1);
  r = call("er_rm", {"-f", p("nothing.er")});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
}

}  // namespace
}  // namespace erkit::expfiles
