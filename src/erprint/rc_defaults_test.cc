// The shipped system er.rc and .er.rc precedence as er_print applies them (seed-spec §7.19).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "rcfile.h"
#include "synthetic_experiment.h"

namespace erkit::erprint {
namespace {

std::string slurp(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(SystemRc, ShippedFileMatchesTheBuiltInDefaultsAndIsFoundFromTheBinary) {
  const std::string shipped = std::string(ERKIT_SOURCE_DIR) + "/src/erprint/er.rc";
  rcfile::RcDefaults d;
  rcfile::process_rc_text(slurp(shipped), "er.rc", d);
  EXPECT_TRUE(d.warnings.empty()) << d.warnings[0];
  EXPECT_EQ(d.dmetrics, kBuiltinDefaultMetrics);
  EXPECT_EQ(d.dsort, kBuiltinDefaultSort);
  EXPECT_EQ(d.get("name"), "long:no_shared_object_name");
  EXPECT_EQ(d.get("sthresh"), "75");
  // The test binary lives in <build>/bin like er_print: <build>/share/erkit/er.rc.
  unsetenv("ERKIT_SYSTEM_RC");
  EXPECT_EQ(std::filesystem::weakly_canonical(system_rc_path()),
            std::filesystem::weakly_canonical(std::string(ERKIT_BUILD_DIR) + "/share/erkit/er.rc"));
  EXPECT_EQ(slurp(system_rc_path()), slurp(shipped));
  setenv("ERKIT_SYSTEM_RC", "/elsewhere/er.rc", 1);
  EXPECT_EQ(system_rc_path(), "/elsewhere/er.rc");
  unsetenv("ERKIT_SYSTEM_RC");
}

class RcPrecedence : public testing::SessionFixture {};

TEST_F(RcPrecedence, CwdThenHomeThenSystem) {
  add_folded({"main;a 1"});
  const std::string dir = path(0) + ".src";
  std::ofstream(dir + "/cwd.rc") << "dmetrics i.%user\nname short\n";
  std::ofstream(dir + "/home.rc") << "dmetrics e.user\nname long:shared_object_name\nviewmode machine\n";
  rcfile::RcPaths paths;
  paths.cwd = dir + "/cwd.rc";
  paths.home = dir + "/home.rc";
  paths.system = std::string(ERKIT_SOURCE_DIR) + "/src/erprint/er.rc";
  s_ = std::make_unique<Session>(rcfile::load_rc(paths));
  std::string error;
  ASSERT_TRUE(s_->load(path(0), &error)) << error;
  s_->finish_loading();
  // dmetrics concatenate (cwd first); name and viewmode: the first file that sets them.
  EXPECT_EQ(run("metrics"), "current: i.user:i%user:e.user:e%user:name\n");
  EXPECT_EQ(run("name"), "current name format: short:no_shared_object_name\n");
  EXPECT_EQ(run("viewmode"), "current viewmode: machine\n");
  EXPECT_EQ(run("tldata"), "current tldata: sample:clock:hwc:synctrace:heaptrace:mpitrace\n");
}

// scc, dcc, sthresh, dthresh, setpath first-wins; addpath and pathmap accumulate (cwd first).
TEST_F(RcPrecedence, SourceSettingsFromRcFiles) {
  add_folded({"main;a 1"});
  const std::string dir = path(0) + ".src";
  std::ofstream(dir + "/cwd.rc") << "setpath /fromrc\naddpath /cwd-extra\nsthresh 1\npathmap /a /b\n";
  std::ofstream(dir + "/home.rc") << "setpath /fromhome\naddpath /home-extra:/home-2\nsthresh 60\ndthresh 10\n"
                                     "scc \"\"\ndcc basic:hex\npathmap \"/c d\" /e\n";
  rcfile::RcPaths paths;
  paths.cwd = dir + "/cwd.rc";
  paths.home = dir + "/home.rc";
  paths.system = std::string(ERKIT_SOURCE_DIR) + "/src/erprint/er.rc";
  s_ = std::make_unique<Session>(rcfile::load_rc(paths));
  std::string error;
  ASSERT_TRUE(s_->load(path(0), &error)) << error;
  s_->finish_loading();
  EXPECT_TRUE(s_->warnings.empty());
  EXPECT_EQ(run("setpath"), "search path: /fromrc:/cwd-extra:/home-extra:/home-2\n");
  EXPECT_EQ(run("sthresh"), "current sthresh: 1\n");
  EXPECT_EQ(run("dthresh"), "current dthresh: 10\n");
  EXPECT_EQ(run("scc"), "current scc: none\n");
  EXPECT_EQ(run("dcc"), "current dcc: basic:hex:src\n");
  EXPECT_EQ(run("pathmap"), "pathmap /a /b\npathmap /c d /e\n");
  // Commands change the rc values as usual.
  EXPECT_EQ(run("addpath /more\nsetpath"), "search path: /fromrc:/cwd-extra:/home-extra:/home-2:/more\n");
  EXPECT_EQ(run("setpath $\nsetpath"), "search path: $expts\n");
  EXPECT_EQ(run("sthresh 12.5\nsthresh"), "current sthresh: 12.5\n");
  EXPECT_EQ(run("scc l:i\nscc"), "current scc: loop:inline\n");
}

TEST_F(RcPrecedence, BuiltInSourceSettingsMatchTheShippedFile) {
  add_folded({"main;a 1"});
  open();  // no rc files at all
  EXPECT_EQ(run("setpath\nsthresh\ndthresh\nscc\ndcc\npathmap"),
            "search path: $expts:.\ncurrent sthresh: 75\ncurrent dthresh: 50\ncurrent scc: basic\n"
            "current dcc: basic:nohex:src\nno path maps\n");
}

TEST_F(RcPrecedence, BadSourceSettingsWarnAndKeepTheDefault) {
  add_folded({"main;a 1"});
  rcfile::RcDefaults rc;
  rcfile::process_rc_text("sthresh lots\ndthresh 101\nscc bogus\nsthresh 5\n", "x.rc", rc);
  s_ = std::make_unique<Session>(std::move(rc));
  std::string error;
  ASSERT_TRUE(s_->load(path(0), &error)) << error;
  s_->finish_loading();
  ASSERT_EQ(s_->warnings.size(), 3u);
  EXPECT_NE(s_->warnings[0].find(".er.rc scc: unknown commentary class 'bogus'"), std::string::npos) << s_->warnings[0];
  EXPECT_EQ(s_->warnings[1], ".er.rc sthresh: 'lots' is not a percentage (0-100); the default applies");
  EXPECT_EQ(s_->warnings[2], ".er.rc dthresh: '101' is not a percentage (0-100); the default applies");
  EXPECT_EQ(run("sthresh\ndthresh\nscc"), "current sthresh: 75\ncurrent dthresh: 50\ncurrent scc: basic\n");
}

}  // namespace
}  // namespace erkit::erprint
