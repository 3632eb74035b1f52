// End-to-end: finding sources (setpath, addpath, pathmap, missing and newer files) and
// er_src without an experiment, including an aarch64 object (cross-built or prebuilt).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "e2e_util.h"

namespace erkit::e2e {
namespace {

class SourcePaths : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_workdir("source_paths");
    std::string src = std::string(ERKIT_SOURCE_DIR) + "/tests/programs/";
    auto r = run("cd " + dir_ + " && mkdir srcdir && cp " + src + "src_hot.c " + src +
                 "src_hot_helper.h srcdir/ && gcc -O1 -g srcdir/src_hot.c -o hot 2>&1 && " + bin("collect") +
                 " ./hot 2>&1");
    ASSERT_EQ(r.status, 0) << r.out;
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  RunResult er_print(const std::string& args) {
    return run("cd " + dir_ + " && " + bin("er_print") + " " + args + " test.1.er");
  }
  RunResult er_src(const std::string& args) { return run("cd " + dir_ + " && " + bin("er_src") + " " + args); }
  std::string dir_;
};

TEST_F(SourcePaths, MissingSourceIsReportedThenFoundThroughPathmapAndSetpath) {
  std::filesystem::rename(dir_ + "/srcdir", dir_ + "/moved");
  auto p = er_print("-source hot_loop");
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_NE(p.out.find("not found"), std::string::npos) << p.out;
  EXPECT_EQ(p.out.find("HOT:"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("<Function: hot_loop>"), std::string::npos) << "index lines without the text\n" << p.out;
  auto m = er_print("-pathmap " + dir_ + "/srcdir " + dir_ + "/moved -source hot_loop");
  EXPECT_NE(m.out.find("HOT:"), std::string::npos) << m.out;
  auto s = er_print("-setpath moved -source hot_loop");
  EXPECT_NE(s.out.find("HOT:"), std::string::npos) << s.out;
  auto a = er_print("-addpath moved -setpath");
  EXPECT_NE(a.out.find("search path: $expts:.:moved"), std::string::npos) << a.out;
}

// .er.rc in $HOME and in the current directory (seed-spec §7.19): setpath, scc, dcc, sthresh,
// dthresh first-wins (cwd over home over the system file), addpath and pathmap accumulate.
TEST_F(SourcePaths, RcFilesInHomeAndCwdSetTheSourceSettings) {
  std::filesystem::create_directories(dir_ + "/home");
  auto write = [](const std::string& p, const std::string& text) { std::ofstream(p) << text; };
  write(dir_ + "/home/.er.rc", "setpath /fromhome\naddpath /home-extra\nsthresh 100\ndthresh 100\nscc none\n"
                               "pathmap /nowhere /else\n");
  write(dir_ + "/.er.rc", "setpath /fromrc\naddpath /cwd-extra\ndcc basic:hex\n");
  auto rc = [&](const std::string& args) {
    return run("cd " + dir_ + " && HOME=" + dir_ + "/home " + bin("er_print") + " " + args + " test.1.er");
  };
  auto p = rc("-setpath -sthresh -dthresh -scc -dcc -pathmap");
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(p.out,
            "search path: /fromrc:/cwd-extra:/home-extra\ncurrent sthresh: 100\ncurrent dthresh: 100\n"
            "current scc: none\ncurrent dcc: basic:hex:src\npathmap /nowhere /else\n");
  EXPECT_EQ(p.err, "");

  // The search path from the files is the one used: the moved sources are not under /fromrc...
  std::filesystem::rename(dir_ + "/srcdir", dir_ + "/moved");
  auto missing = rc("-source hot_loop");
  ASSERT_EQ(missing.status, 0) << missing.err;
  EXPECT_NE(missing.out.find("not found (searched /fromrc:/cwd-extra:/home-extra"), std::string::npos)
      << missing.out;
  // ...until a pathmap (accumulated: the home file's map stays) leads there.
  write(dir_ + "/.er.rc", "setpath /fromrc\npathmap " + dir_ + "/srcdir " + dir_ + "/moved\n");
  auto mapped = rc("-pathmap -source hot_loop");
  ASSERT_EQ(mapped.status, 0) << mapped.err;
  EXPECT_EQ(mapped.out.rfind("pathmap " + dir_ + "/srcdir " + dir_ + "/moved\npathmap /nowhere /else\n", 0), 0u)
      << mapped.out;
  EXPECT_NE(mapped.out.find("HOT:"), std::string::npos) << mapped.out;

  // Thresholds and commentary classes from the files give the same listings as the commands.
  std::filesystem::rename(dir_ + "/moved", dir_ + "/srcdir");
  std::filesystem::remove(dir_ + "/.er.rc");
  auto from_rc = rc("-source hot_loop -disasm hot_loop");
  auto from_cmd = er_print("-sthresh 100 -dthresh 100 -scc none -source hot_loop -disasm hot_loop");
  ASSERT_EQ(from_rc.status, 0) << from_rc.err;
  EXPECT_EQ(from_rc.out, from_cmd.out);
  auto by_default = er_print("-source hot_loop -disasm hot_loop");
  auto count = [](const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_LE(count(from_rc.out, "\n## "), count(by_default.out, "\n## "));
  EXPECT_GE(count(from_rc.out, "\n## "), 2u) << "the maximum of a source line and of an instruction\n" << from_rc.out;
}

TEST_F(SourcePaths, SourceNewerThanTheBinaryIsWarned) {
  auto t = run("touch -d '+1 hour' " + dir_ + "/srcdir/src_hot.c");
  ASSERT_EQ(t.status, 0);
  auto p = er_print("-source hot_loop");
  EXPECT_NE(p.out.find("is newer than the object file"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("HOT:"), std::string::npos) << p.out;
}

TEST_F(SourcePaths, BadRequestsGiveClearErrors) {
  auto p = er_print("-source no_such_function_or_file");
  EXPECT_NE(p.status, 0);
  EXPECT_NE(p.err.find("no function or source file named 'no_such_function_or_file'"), std::string::npos) << p.err;
  auto t = er_print("-sthresh 250");
  EXPECT_NE(t.status, 0);
  EXPECT_NE(t.err.find("not a percentage"), std::string::npos) << t.err;
  auto c = er_print("-scc bogus");
  EXPECT_NE(c.status, 0);
  EXPECT_NE(c.err.find("unknown commentary class 'bogus'"), std::string::npos) << c.err;
}

TEST_F(SourcePaths, ErSrcWithoutAnExperiment) {
  auto f = er_src("-func hot");
  ASSERT_EQ(f.status, 0) << f.err;
  EXPECT_NE(f.out.find("hot_loop"), std::string::npos) << f.out;
  auto s = er_src("-source hot_loop 1 hot");
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_NE(s.out.find("<Function: hot_loop>"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("HOT:"), std::string::npos) << s.out;
  EXPECT_EQ(s.out.find("User CPU"), std::string::npos) << "no metrics without an experiment\n" << s.out;
  auto d = er_src("-dcc hex -disasm hot_loop 1 hot");
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_NE(d.out.find("divsd"), std::string::npos) << d.out;
  auto o = er_src("-outfile listing.txt -source src_hot_helper.h 0 hot");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(std::filesystem::file_size(dir_ + "/listing.txt") > 0);
  auto bad = er_src("-source hot_loop 1 /no/such/object");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.err.find("/no/such/object"), std::string::npos) << bad.err;
  auto v = er_src("-V");
  EXPECT_EQ(v.status, 0);
  EXPECT_NE(v.out.find("er_src: erkit"), std::string::npos);
}

// Cross-built here by clang + lld when they are installed, else the object checked in
// beside its source (src/disasm/testdata/a64_loop.so, built the same way).
TEST_F(SourcePaths, ErSrcDisassemblesAnAArch64Object) {
  std::string td = std::string(ERKIT_SOURCE_DIR) + "/src/disasm/testdata/";
  bool cross = run("command -v clang && command -v ld.lld").status == 0;
  auto c = cross ? run("cd " + dir_ + " && clang --target=aarch64-linux-gnu -O1 -g -fPIC -c " + td +
                       "a64_loop.c -o a64.o 2>&1 && ld.lld -shared a64.o -o a64.so 2>&1")
                 : run("cp " + td + "a64_loop.so " + dir_ + "/a64.so 2>&1");
  ASSERT_EQ(c.status, 0) << (cross ? "cross-build with clang and lld: " : "copy of the prebuilt object: ") << c.out;
  auto d = er_src("-disasm caller 1 a64.so");
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_NE(d.out.find("<Function: caller>"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("ext_fn@plt ! 0x"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("ret"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("[   6]"), std::string::npos) << "the loop line of sum_to, same module\n" << d.out;
}

}  // namespace
}  // namespace erkit::e2e
