// The Collect window's command line: collect's options from the form's fields, checked; the
// run goes through no shell (metacharacters arrive as plain argv words).
#include "analyzer/collect_runner.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

namespace erkit::analyzer {
namespace {

using V = std::vector<std::string>;

std::string temp_dir() {
  char tmpl[] = "/tmp/erkit-collect-runner-XXXXXX";
  return mkdtemp(tmpl);
}

TEST(CollectCommand, BuildsCollectsArgvFromTheForm) {
  const std::string dir = temp_dir();
  CollectRequest r;
  r.target = "./prog";
  r.args = {"a b", "$(rm -rf /)"};
  r.clock = "hi";
  r.heap = "on";
  r.sync = "all";
  r.io = "on";
  r.hwc = "+page-faults,1";
  V argv;
  std::string error;
  ASSERT_TRUE(collect_command(r, dir, &argv, &error)) << error;
  EXPECT_EQ(argv, (V{"collect", "-p", "hi", "-h", "+page-faults,1", "-s", "all", "-H", "on", "-i", "on", "-y", "SIGUSR1,r",
                     "-l", "SIGUSR2", "-d", dir, "-o", "test.1.er", "./prog", "a b", "$(rm -rf /)"}));
  EXPECT_EQ(shell_quote_command({"collect", "-o", "x.er", "./prog", "a b", "$(x)", "it's"}),
            "collect -o x.er ./prog 'a b' '$(x)' 'it'\\''s'");
  // The next free test.N.er.
  std::filesystem::create_directory(dir + "/test.1.er");
  r.signals = false;
  ASSERT_TRUE(collect_command(r, dir, &argv, &error)) << error;
  EXPECT_EQ(argv[argv.size() - 4], "test.2.er");
  EXPECT_EQ(std::count(argv.begin(), argv.end(), "-y"), 0);
  r.name = "mine";
  ASSERT_TRUE(collect_command(r, dir, &argv, &error)) << error;
  EXPECT_EQ(argv[argv.size() - 4], "mine.er");
  std::filesystem::remove_all(dir);
}

TEST(CollectCommand, RefusesValuesCollectDoesNotTake) {
  CollectRequest r;
  V argv;
  std::string error;
  EXPECT_FALSE(collect_command(r, "/tmp", &argv, &error));
  EXPECT_EQ(error, "no target program");
  r.target = "-x";
  EXPECT_FALSE(collect_command(r, "/tmp", &argv, &error));
  r.target = "./prog";
  r.clock = "on; rm -rf /";
  EXPECT_FALSE(collect_command(r, "/tmp", &argv, &error));
  EXPECT_EQ(error, "clock profiling (-p): 'on; rm -rf /' is not a value collect takes");
  r.clock = "10m";
  r.heap = "yes";
  EXPECT_FALSE(collect_command(r, "/tmp", &argv, &error));
  r.heap = "";
  r.name = "../escape";
  EXPECT_FALSE(collect_command(r, "/tmp", &argv, &error));
  EXPECT_NE(error.find("no directories"), std::string::npos) << error;
}

TEST(CollectCommand, JavaGroupAndArchiveFields) {
  CollectRequest r;
  r.target = "java";
  r.args = {"Hot"};
  r.signals = false;
  r.name = "j";
  r.java = "on";
  r.java_args = "-Xmx1g -Dx=a b";
  r.group = "runs.erg";
  r.archive = "copy";
  V argv;
  std::string error;
  ASSERT_TRUE(collect_command(r, "/tmp", &argv, &error)) << error;
  EXPECT_EQ(argv, (V{"collect", "-j", "on", "-J", "-Xmx1g -Dx=a b", "-g", "runs.erg", "-A", "copy", "-d", "/tmp", "-o",
                     "j.er", "java", "Hot"}));
  // Values collect refuses, and a group that is not a plain .erg name of the run's directory.
  for (auto [field, bad] : std::vector<std::pair<std::string CollectRequest::*, std::string>>{
           {&CollectRequest::java, "yes"},
           {&CollectRequest::archive, "all"},
           {&CollectRequest::group, "../up.erg"},
           {&CollectRequest::group, "/tmp/x.erg"},
           {&CollectRequest::group, "runs"},
           {&CollectRequest::java_args, "-Xmx1g\n-Dy"}}) {
    CollectRequest b = r;
    b.*field = bad;
    EXPECT_FALSE(collect_command(b, "/tmp", &argv, &error)) << bad;
    EXPECT_NE(error.find("is not a value collect takes"), std::string::npos) << error;
  }
}

TEST(CollectRunner, RunsWithoutAShellAndKeepsTheOutput) {
  const std::string dir = temp_dir();
  CollectRunner run;
  std::string error;
  ASSERT_TRUE(run.start("/bin/echo", {"echo", "$(id)", "a;b", "*"}, dir, dir + "/x.er", &error)) << error;
  CollectRunner::Status s;
  for (int i = 0; i < 2000; ++i) {  // up to 20 s on a loaded machine
    s = run.status(0);
    if (!s.running) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_FALSE(s.running);
  EXPECT_EQ(s.exit_code, 0);
  EXPECT_EQ(s.output, "$(id) a;b *\n");
  EXPECT_EQ(run.status(6).output, "a;b *\n");
  EXPECT_EQ(s.experiment, dir + "/x.er");
  // The child gets no descriptor of the server's beyond 0, 1, 2.
  const int fd = 100;  // not close-on-exec, as cpp-httplib's sockets
  const int null_fd = open("/dev/null", O_RDONLY);
  ASSERT_EQ(dup2(null_fd, fd), fd);
  close(null_fd);
  ASSERT_TRUE(run.start("/bin/ls", {"ls", "/proc/self/fd"}, dir, "", &error)) << error;
  for (int i = 0; i < 2000 && run.status(0).running; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  close(fd);
  // 0, 1, 2 and ls's own directory descriptor (3), nothing of ours.
  std::string listed = run.status(0).output;
  EXPECT_EQ(listed.find(std::to_string(fd) + "\n"), std::string::npos) << listed;
  // Nothing runs: no signal to send.
  EXPECT_FALSE(run.signal("pause", &error));
  EXPECT_EQ(error, "no collect run is in progress");
  EXPECT_FALSE(run.start("/nonexistent/collect", {"collect"}, dir, "", &error));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace erkit::analyzer
