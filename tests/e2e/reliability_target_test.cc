// End-to-end: the target behaves exactly as without erkit (issue 14, items 6-8). The purpose-built
// tests/programs/rel_target.c prints what a program observes of its own process (signal
// dispositions and mask, the descriptor numbers it gets, how many files it can open); each test
// runs it plain and under collect, started the same way, and compares.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>

#include "collect_fixture.h"

namespace erkit::e2e {
namespace {

struct Spawned {
  int wait_status = -1;  // raw waitpid status
  std::string out;       // stdout
};

class ReliabilityTarget : public CollectTest {
 protected:
  // Runs argv (no shell between) in the work directory, in a process group of its own (so a
  // signal to the group does not reach the test), after `setup` ran in the child.
  Spawned spawn(std::vector<std::string> argv, const std::function<void()>& setup = [] {}) {
    int pipefd[2];
    EXPECT_EQ(pipe(pipefd), 0);
    pid_t pid = fork();
    if (pid == 0) {
      setpgid(0, 0);
      if (chdir(dir_.c_str()) != 0) _exit(126);
      struct rlimit no_core {0, 0};
      setrlimit(RLIMIT_CORE, &no_core);
      setup();
      dup2(pipefd[1], 1);
      int err = ::open("/dev/null", O_WRONLY);
      dup2(err, 2);
      close(err);
      close(pipefd[0]);
      close(pipefd[1]);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    close(pipefd[1]);
    Spawned s;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(pipefd[0], buf, sizeof buf)) > 0) s.out.append(buf, size_t(n));
    close(pipefd[0]);
    waitpid(pid, &s.wait_status, 0);
    return s;
  }
  std::vector<std::string> plain(const std::string& mode_args) {
    std::vector<std::string> v{program("rel_target")};
    std::istringstream in(mode_args);
    for (std::string w; in >> w;) v.push_back(w);
    return v;
  }
  std::vector<std::string> collected(const std::string& mode_args) {
    auto v = plain(mode_args);
    v.insert(v.begin(), {bin("collect"), "-o", "test." + std::to_string(++runs_) + ".er"});
    return v;
  }
  int runs_ = 0;
};

// What nohup, `trap '' INT` or a daemon's start-up leave to the program: ignored signals and a
// blocked mask.
void inherit_ignored_and_blocked() {
  for (int s : {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGPIPE, SIGCHLD}) signal(s, SIG_IGN);
  sigset_t block;
  sigemptyset(&block);
  for (int s : {SIGUSR2, SIGALRM, SIGTSTP, SIGWINCH, SIGPROF}) sigaddset(&block, s);
  sigprocmask(SIG_SETMASK, &block, nullptr);
}

TEST_F(ReliabilityTarget, InheritedSignalDispositionsAndMaskReachTheTarget) {
  auto p = spawn(plain("signals"), inherit_ignored_and_blocked);
  ASSERT_TRUE(WIFEXITED(p.wait_status) && WEXITSTATUS(p.wait_status) == 0) << p.wait_status;
  ASSERT_NE(p.out.find(" 1 HUP      ignored -"), std::string::npos) << p.out;
  ASSERT_NE(p.out.find("27 PROF     default blocked"), std::string::npos) << p.out;
  auto c = spawn(collected("signals"), inherit_ignored_and_blocked);
  EXPECT_TRUE(WIFEXITED(c.wait_status) && WEXITSTATUS(c.wait_status) == 0) << c.wait_status;
  EXPECT_EQ(c.out, p.out);
  // And nothing set: all default, nothing blocked, under collect as well.
  auto pd = spawn(plain("signals"));
  auto cd = spawn(collected("signals"));
  EXPECT_EQ(cd.out, pd.out);
  EXPECT_EQ(pd.out.find("ignored"), std::string::npos) << pd.out;
}

TEST_F(ReliabilityTarget, NohupTargetSurvivesTheTerminalClosing) {
  // The target signals its whole process group (collect included) as a hang-up would.
  auto ignore_hup = [] { signal(SIGHUP, SIG_IGN); };
  auto p = spawn(plain("hup"), ignore_hup);
  ASSERT_EQ(p.out, "alive after SIGHUP\n");
  auto c = spawn(collected("hup"), ignore_hup);
  EXPECT_EQ(c.out, p.out);
  EXPECT_TRUE(WIFEXITED(c.wait_status) && WEXITSTATUS(c.wait_status) == 0) << c.wait_status;
  auto e = open("test.1.er");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->log.end_how, "exit");
  EXPECT_EQ(e->log.end_status, 0);
}

TEST_F(ReliabilityTarget, CollectDiesByTheSignalThatKilledTheTarget) {
  // Like time, nice or env: a shell sees the signal (and stops its loop on ^C), after collect
  // wrote the experiment's end.
  for (int sig : {SIGINT, SIGTERM, SIGSEGV}) {
    SCOPED_TRACE(sigabbrev_np(sig));
    auto p = spawn(plain("raise:" + std::to_string(sig)));
    ASSERT_TRUE(WIFSIGNALED(p.wait_status) && WTERMSIG(p.wait_status) == sig) << p.wait_status;
    auto c = spawn(collected("raise:" + std::to_string(sig)));
    EXPECT_TRUE(WIFSIGNALED(c.wait_status)) << "collect exited with status " << WEXITSTATUS(c.wait_status);
    EXPECT_EQ(WTERMSIG(c.wait_status), sig);
    EXPECT_FALSE(WCOREDUMP(c.wait_status));
    auto e = open("test." + std::to_string(runs_) + ".er");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->log.end_how, "signal");
    EXPECT_EQ(e->log.end_status, sig);
  }
}

TEST_F(ReliabilityTarget, DaemonClosingEveryDescriptorGetsTheLowestNumbers) {
  // 4 threads keep the collector's sampler busy (two /proc files per thread, the thread list)
  // while the main thread closes everything and reopens /dev/null 300 times: it must get 0, 1,
  // 2, 3 every time, as without erkit; then it dup2()s onto 900..915, where the collector's
  // own descriptors are, and closes them.
  auto p = spawn(plain("daemon 4 300 plain.txt"));
  ASSERT_TRUE(WIFEXITED(p.wait_status) && WEXITSTATUS(p.wait_status) == 0) << p.wait_status;
  std::string expected = read("plain.txt");
  ASSERT_NE(expected.find("first bad round -1\nlast numbers 0 1 2 3\ndup2 onto 900..915: 16 of 16\nclosed: 16 of 16\n"
                          "close of a closed number fails: 1\n"),
            std::string::npos)
      << expected;
  auto c = spawn(collected("daemon 4 300 collected.txt"));
  EXPECT_TRUE(WIFEXITED(c.wait_status) && WEXITSTATUS(c.wait_status) == 0) << c.wait_status;
  EXPECT_EQ(read("collected.txt"), expected);
  // The collector kept its files through all of it: the log has the collector's own exit line,
  // and every thread is in the profile.
  auto e = open("test.1.er");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->log.collector_exit, "exit");
  std::set<uint32_t> tids;
  for (const auto& s : e->clock) tids.insert(s.tid);
  EXPECT_GE(tids.size(), 5u);
  auto h = er_print("-header test.1.er");
  EXPECT_EQ(h.status, 0) << h.err;
  EXPECT_EQ(h.err, "");
}

TEST_F(ReliabilityTarget, LoweredDescriptorLimitLeavesTheProgramItsDescriptors) {
  // 20 threads, then RLIMIT_NOFILE lowered to 64: the program opens as many files as without
  // erkit (the collector's 40 per-thread descriptors and its log, map and data files sit above
  // the limit, where they do not count).
  auto p = spawn(plain("nofile 20 64"));
  ASSERT_NE(p.out.find(", highest 63, then EMFILE"), std::string::npos) << p.out;
  auto c = spawn(collected("nofile 20 64"));
  EXPECT_EQ(c.out, p.out);
  EXPECT_TRUE(WIFEXITED(c.wait_status) && WEXITSTATUS(c.wait_status) == 0) << c.wait_status;
  auto e = open("test.1.er");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->log.collector_exit, "exit");
}

}  // namespace
}  // namespace erkit::e2e
