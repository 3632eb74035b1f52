#include "rcfile.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

namespace erkit::rcfile {
namespace {
namespace fs = std::filesystem;

struct TempDirs : ::testing::Test {
  fs::path root, cwd, home, sys;
  void SetUp() override {
    std::random_device rd;
    root = fs::temp_directory_path() / ("erkit_rc_" + std::to_string(rd()) + std::to_string(::getpid()));
    cwd = root / "cwd";
    home = root / "home";
    sys = root / "sys";
    for (const auto& d : {cwd, home, sys}) fs::create_directories(d);
  }
  void TearDown() override { fs::remove_all(root); }
  static void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }
  RcPaths paths() const { return RcPaths{cwd / ".er.rc", home / ".er.rc", sys / "er.rc"}; }
};

TEST_F(TempDirs, PrecedenceCwdOverHomeOverSystem) {
  write(sys / "er.rc", "scc basic\nsthresh 75\ndthresh 50\nviewmode user\nname long\n");
  write(home / ".er.rc", "sthresh 60\nviewmode expert\n");
  write(cwd / ".er.rc", "viewmode machine\n");
  const RcDefaults d = load_rc(paths());
  EXPECT_EQ(d.get("viewmode"), "machine");
  EXPECT_EQ(d.get("sthresh"), "60");
  EXPECT_EQ(d.get("dthresh"), "50");
  EXPECT_EQ(d.get("scc"), "basic");
  EXPECT_EQ(d.get("tabs"), std::nullopt);
  ASSERT_EQ(d.files_read.size(), 3u);
  EXPECT_EQ(d.files_read[0], (cwd / ".er.rc").string());
  EXPECT_TRUE(d.warnings.empty());
}

TEST_F(TempDirs, AccumulatingCommandsConcatenateAcrossFiles) {
  write(sys / "er.rc", "dmetrics e.%user:name\ndsort e.user\naddpath /sys/src\nsetpath $expts:.\n");
  write(home / ".er.rc", "dmetrics i.%user\naddpath /home/src\n");
  write(cwd / ".er.rc", "dmetrics e.%wall\ndmetrics i.%wall\ndsort i.wall\naddpath ../src\n");
  const RcDefaults d = load_rc(paths());
  EXPECT_EQ(d.dmetrics, "e.%wall:i.%wall:i.%user:e.%user:name");
  EXPECT_EQ(d.dsort, "i.wall:e.user");
  EXPECT_EQ(d.addpath, (std::vector<std::string>{"../src", "/home/src", "/sys/src"}));
  EXPECT_EQ(d.search_path(), "$expts:.:../src:/home/src:/sys/src");
}

TEST_F(TempDirs, PathmapsAccumulateHighestPrecedenceFirst) {
  write(sys / "er.rc", "pathmap /build /sys\n");
  write(home / ".er.rc", "pathmap \"/old dir\" \"/new dir\"\npathmap /only-one-word\n");
  write(cwd / ".er.rc", "pathmap /build /cwd\n");
  const RcDefaults d = load_rc(paths());
  using Map = std::pair<std::string, std::string>;
  EXPECT_EQ(d.pathmaps, (std::vector<Map>{{"/build", "/cwd"}, {"/old dir", "/new dir"}, {"/build", "/sys"}}));
  ASSERT_EQ(d.warnings.size(), 1u);
  EXPECT_NE(d.warnings[0].find(".er.rc:2: pathmap needs an old prefix and a new prefix"), std::string::npos)
      << d.warnings[0];
}

TEST(RcText, EmptyCommentaryListMeansNone) {
  RcDefaults d;
  process_rc_text("scc \"\"\ndcc\n", "x", d);
  EXPECT_EQ(d.get("scc"), "");
  EXPECT_EQ(d.get("dcc"), std::nullopt);
  ASSERT_EQ(d.warnings.size(), 1u);
  EXPECT_EQ(d.warnings[0], "x:2: command 'dcc' needs an argument; ignored");
}

TEST_F(TempDirs, FirstOccurrenceWinsWithinAFile) {
  write(cwd / ".er.rc", "scc all\nscc none\nen_desc on\nen_desc off\n");
  const RcDefaults d = load_rc(paths());
  EXPECT_EQ(d.get("scc"), "all");
  EXPECT_EQ(d.get("en_desc"), "on");
}

TEST_F(TempDirs, MissingFilesAreSkipped) {
  const RcDefaults d = load_rc(paths());
  EXPECT_TRUE(d.files_read.empty());
  EXPECT_EQ(d.search_path(), "$expts:.");
  write(home / ".er.rc", "tldata sample:clock\n");
  EXPECT_EQ(load_rc(paths()).get("tldata"), "sample:clock");
}

TEST_F(TempDirs, SameFileReadOnceWhenCwdIsHome) {
  write(home / ".er.rc", "dmetrics e.%user\n");
  RcPaths p = paths();
  p.cwd = home / ".er.rc";
  const RcDefaults d = load_rc(p);
  EXPECT_EQ(d.dmetrics, "e.%user");
  EXPECT_EQ(d.files_read.size(), 1u);
}

TEST(RcText, AllowedCommands) {
  for (const char* c : {"dmetrics", "dsort", "en_desc", "scc", "sthresh", "dcc", "dthresh", "setpath", "addpath",
                        "name", "mobj_define", "obj_define", "tabs", "tlmode", "tldata", "viewmode", "pathmap"})
    EXPECT_TRUE(allowed_in_rc(c)) << c;
  for (const char* c : {"metrics", "sort", "functions", "limit", "filters", "quit"}) EXPECT_FALSE(allowed_in_rc(c)) << c;
}

TEST(RcText, WarningsCommentsContinuationsAndQuotes) {
  RcDefaults d;
  process_rc_text(
      "# comment\n"
      "\n"
      "metrics e.user\n"
      "frobnicate 1\n"
      "dcc basic:\\\n"
      "src\n"
      "tabs \"functions:callers-callees\"\r\n"
      "setpath \"/dir with blanks\":.\n"
      "en_desc maybe\n"
      "sthresh\n",
      "test.rc", d);
  EXPECT_EQ(d.get("dcc"), "basic:src");
  EXPECT_EQ(d.get("tabs"), "functions:callers-callees");
  EXPECT_EQ(d.get("setpath"), "/dir with blanks:.");
  EXPECT_EQ(d.get("en_desc"), std::nullopt);
  ASSERT_EQ(d.warnings.size(), 4u);
  EXPECT_EQ(d.warnings[0], "test.rc:3: command 'metrics' is not allowed in .er.rc; ignored");
  EXPECT_EQ(d.warnings[1], "test.rc:4: unknown command 'frobnicate'; ignored");
  EXPECT_EQ(d.warnings[2], "test.rc:9: en_desc takes 'on' or 'off'; ignored");
  EXPECT_EQ(d.warnings[3], "test.rc:10: command 'sthresh' needs an argument; ignored");
}

TEST(RcText, MemoryObjectDefinitionsFirstPerName) {
  RcDefaults d;
  process_rc_text("mobj_define Vpage_8K VADDR>>13\nobj_define Vpage_8K VADDR>>12\nmobj_define Cline VADDR > 255 ? VADDR>>6 : -1\n",
                  "a", d);
  ASSERT_EQ(d.mobj_defines.size(), 2u);
  EXPECT_EQ(d.mobj_defines[0], (std::pair<std::string, std::string>{"Vpage_8K", "VADDR>>13"}));
  EXPECT_EQ(d.mobj_defines[1].second, "VADDR > 255 ? VADDR>>6 : -1");
}

TEST(RcText, ErSrcUsesOnlySccAndDcc) {
  RcDefaults d;
  process_rc_text("scc all\ndcc hex\nsthresh 10\ndmetrics e.%user\n", "x", d, Consumer::ErSrc);
  EXPECT_EQ(d.get("scc"), "all");
  EXPECT_EQ(d.get("dcc"), "hex");
  EXPECT_EQ(d.get("sthresh"), std::nullopt);
  EXPECT_TRUE(d.dmetrics.empty());
}

TEST(RcText, ShippedDefaultsParse) {
  // Spec §16 system er.rc.
  RcDefaults d;
  process_rc_text(
      "dmetrics e.%user:i.%user:i+syncn:i.%sync:e.%hwc:i.%hwc:i+leak:i+bleak:e.%mpitime:i.%mpitime:e.%kcycles:i.%kcycles:name\n"
      "dsort    e.user:e.hwc:i.sync:i.leak:e.mpitime:e.kcycles:name\n"
      "scc basic\ndcc basic:src\nsthresh 75\ndthresh 50\nsetpath $expts:.\nname long:no_shared_object_name\n"
      "viewmode user\nen_desc off\ntlmode thread:root:depth 10\ntldata sample:clock:hwc:synctrace:heaptrace:mpitrace\n"
      "tabs functions:callers-callees:source:disasm:timeline:headers:statistics\n",
      "er.rc", d);
  EXPECT_TRUE(d.warnings.empty());
  EXPECT_EQ(d.dsort, "e.user:e.hwc:i.sync:i.leak:e.mpitime:e.kcycles:name");
  EXPECT_EQ(d.get("tlmode"), "thread:root:depth 10");
  EXPECT_EQ(d.settings.size(), 11u);
}

TEST(StandardPaths, UsesHomeAndCwd) {
  const RcPaths p = standard_paths("/opt/erkit/lib/er.rc");
  EXPECT_EQ(p.system, fs::path("/opt/erkit/lib/er.rc"));
  ASSERT_TRUE(p.cwd);
  EXPECT_EQ(p.cwd->filename(), ".er.rc");
}

}  // namespace
}  // namespace erkit::rcfile
