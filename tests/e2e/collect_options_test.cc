// End-to-end: collect's options (seed-spec §3.2-3.6, §5.1-5.2): every error is reported
// before the target runs, output options, naming, groups, notes, dry run, -x.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "collect_fixture.h"

namespace erkit::e2e {
namespace {

namespace fs = std::filesystem;

class CollectOptions : public CollectTest {
 protected:
  // A target whose only effect is a file: the proof that it ran.
  std::string touch() const { return "/usr/bin/touch ran.txt"; }
  bool experiments_exist() {
    for (const auto& d : fs::directory_iterator(dir_))
      if (d.path().extension() == ".er" && d.path().filename() != "mine.er") return true;
    return false;
  }
  void expect_refused(const std::string& args, const std::string& message) {
    SCOPED_TRACE(args);
    auto c = collect(args);
    EXPECT_NE(c.status, 0);
    EXPECT_NE(c.err.find(message), std::string::npos) << c.err;
    EXPECT_FALSE(exists("ran.txt")) << "the target ran";
    EXPECT_FALSE(experiments_exist()) << "an experiment was created";
  }
};

TEST_F(CollectOptions, EveryErrorIsReportedBeforeTheTargetRuns) {
  std::ofstream(path("not_executable")) << "#!/bin/sh\n";
  std::ofstream(path("plain.erg")) << "not a group\n";
  fs::create_directory(path("mine.er"));
  std::string t = touch();
  expect_refused("/nonexistent/program", "not found");
  expect_refused("./not_executable", "not executable");
  expect_refused(program("static_hello"), "statically linked");
  expect_refused("-o bad " + t, "must end in .er");
  expect_refused("-o mine.er " + t, "already exists");
  expect_refused("-l SIGFOO " + t, "unknown signal");
  expect_refused("-y 99 " + t, "unknown signal");
  expect_refused("-l USR1 -y SIGUSR1 " + t, "different signals");
  expect_refused("-l KILL " + t, "cannot be caught");
  expect_refused("-y PROF " + t, "clock-profiling signal");
  expect_refused("-d /nonexistent/dir " + t, "does not exist");
  expect_refused("-g group " + t, "must end in .erg");
  expect_refused("-g plain.erg " + t, "is not an experiment group");
  expect_refused("-g /nonexistent/dir/g.erg " + t, "does not exist");
  expect_refused("-F '=(' " + t, "bad -F regular expression");
  expect_refused("-F sometimes " + t, "bad -F value");
  expect_refused("-J -Xmx1g " + t, "-J needs Java profiling");
  expect_refused("-S 0 " + t, "bad -S value");
  expect_refused("-L lots " + t, "bad -L value");
  expect_refused("-A maybe " + t, "bad -A value");
  expect_refused("-p 2000 " + t, "bad clock-profiling interval");
  expect_refused("-Q " + t, "unknown option");
  std::string eleven;
  for (int i = 0; i < 11; ++i) eleven += "-C c" + std::to_string(i) + " ";
  expect_refused(eleven + t, "at most 10 -C");
  expect_refused("-o x.er", "no target program");
}

TEST_F(CollectOptions, DryRunDescribesWithoutRunning) {
  auto c = collect("-n -o dry.4.er -F all -l USR1 -y USR2,r -S 3 -L 5 -C hello " + touch());
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_FALSE(exists("ran.txt"));
  EXPECT_FALSE(exists("dry.4.er"));
  for (const char* s : {"dry run", "dry.4.er", "/usr/bin/touch", "ran.txt", "every 3 s", "5 MB", "SIGUSR1",
                        "SIGUSR2 (starts recording)", "all (also system, popen)", "hello"})
    EXPECT_NE(c.out.find(s), std::string::npos) << s << "\n" << c.out;
  // A relative group goes into the -d directory, as the real run places it.
  fs::create_directory(path("dd"));
  auto g = collect("-n -d dd -g g.erg " + touch());
  ASSERT_EQ(g.status, 0) << g.err;
  EXPECT_NE(g.out.find("Group:             dd/g.erg\n"), std::string::npos) << g.out;
  EXPECT_FALSE(exists("dd/g.erg"));
}

TEST_F(CollectOptions, NamesAdvanceAndGroupsCollect) {
  ASSERT_EQ(collect("-o my.3.er " + touch()).status, 0);
  ASSERT_EQ(collect("-o my.3.er " + touch()).status, 0);
  EXPECT_TRUE(exists("my.3.er/log"));
  EXPECT_TRUE(exists("my.4.er/log"));
  fs::create_directory(path("out"));
  ASSERT_EQ(collect("-d out -g runs.erg " + touch()).status, 0);
  ASSERT_EQ(collect("-d out -g runs.erg " + touch()).status, 0);
  EXPECT_TRUE(exists("out/test.1.er/log"));
  EXPECT_FALSE(exists("runs.erg"));  // a relative group goes to the -d directory
  // Members are named relative to the group file, which may then be opened from anywhere.
  EXPECT_EQ(read("out/runs.erg"), "#analyzer experiment group\ntest.1.er\ntest.2.er\n");
  auto p = er_print("-experiment_list out/runs.erg");
  EXPECT_EQ(p.status, 0) << p.err;
}

TEST_F(CollectOptions, CommentsGoToNotes) {
  ASSERT_EQ(collect("-C 'first comment' -C second " + touch()).status, 0);
  EXPECT_EQ(read("test.1.er/notes"), "first comment\nsecond\n");
  auto e = open("test.1.er");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->notes, (std::vector<std::string>{"first comment", "second"}));
}

TEST_F(CollectOptions, OutputFileTakesEverythingCollectSays) {
  auto c = collect("-O said.txt -v " + touch());
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_EQ(c.out.find("collect:"), std::string::npos) << c.out;
  std::string said = read("said.txt");
  EXPECT_NE(said.find("recording experiment test.1.er"), std::string::npos) << said;
  // Appended, errors included.
  auto bad = collect("-O said.txt -o nope " + touch());
  EXPECT_NE(bad.status, 0);
  EXPECT_TRUE(bad.err.empty()) << bad.err;
  said = read("said.txt");
  EXPECT_NE(said.find("recording experiment test.1.er"), std::string::npos);
  EXPECT_NE(said.find("must end in .er"), std::string::npos) << said;
  // /dev/null silences collect entirely.
  auto quiet = collect("-O /dev/null -o nope " + touch());
  EXPECT_NE(quiet.status, 0);
  EXPECT_TRUE(quiet.out.empty() && quiet.err.empty());
}

TEST_F(CollectOptions, VersionReadmeAndVerbose) {
  auto v = collect("-V " + touch());
  EXPECT_EQ(v.status, 0);
  EXPECT_NE(v.out.find("erkit"), std::string::npos);
  EXPECT_FALSE(exists("ran.txt"));
  auto r = collect("-R");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("er_print"), std::string::npos);
  EXPECT_FALSE(experiments_exist());
  auto verbose = collect("-v -S 2 " + touch());
  ASSERT_EQ(verbose.status, 0);
  EXPECT_NE(verbose.out.find("S=2000"), std::string::npos) << verbose.out;
  EXPECT_TRUE(exists("ran.txt"));
  auto off = collect("-p off " + touch());
  EXPECT_NE(off.out.find("only samples"), std::string::npos) << off.out;
}

TEST_F(CollectOptions, StopAfterExecWaitsBeforeMain) {
  pid_t collect_pid = fork();
  if (collect_pid == 0) {
    if (chdir(dir_.c_str()) != 0) _exit(126);
    freopen("said.txt", "w", stdout);
    std::string collect_bin = bin("collect");
    execl(collect_bin.c_str(), "collect", "-x", "/usr/bin/touch", "ran.txt", (char*)nullptr);
    _exit(127);
  }
  ASSERT_GT(collect_pid, 0);
  pid_t target = 0;
  for (int i = 0; i < 500 && !target; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::string said = read("said.txt");
    size_t p = said.find("target process ");
    if (p != std::string::npos) target = std::atoi(said.c_str() + p + 15);
  }
  ASSERT_GT(target, 0) << read("said.txt");
  std::ifstream st("/proc/" + std::to_string(target) + "/status");
  std::string line, state;
  while (std::getline(st, line))
    if (line.rfind("State:", 0) == 0) state = line;
  EXPECT_NE(state.find("T"), std::string::npos) << state;
  EXPECT_FALSE(exists("ran.txt"));  // main has not run
  EXPECT_NE(read("test.1.er/log").find("stopped_after_exec"), std::string::npos);
  kill(target, SIGCONT);
  int wst = 0;
  waitpid(collect_pid, &wst, 0);
  EXPECT_TRUE(WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
  EXPECT_TRUE(exists("ran.txt"));
}

}  // namespace
}  // namespace erkit::e2e
