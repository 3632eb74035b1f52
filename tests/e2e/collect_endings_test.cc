// End-to-end: every way the target ends is recorded in the run log (seed-spec §3, issue 4
// "ending well"), by the collector where it can see it and by collect always; an experiment
// killed at a random moment opens and holds the data written until then; -L stops event data
// but not samples.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <thread>

#include "collect_fixture.h"

namespace erkit::e2e {
namespace {

class CollectEndings : public CollectTest {
 protected:
  reader::RunLog ending(const std::string& steps, int expect_rc) {
    auto c = collect("-S off " + family() + " " + steps);
    EXPECT_EQ(c.status, expect_rc) << steps << "\n" << c.err;
    auto e = open("test." + std::to_string(++runs_) + ".er");
    return e ? e->log : reader::RunLog{};
  }
  int runs_ = 0;
};

TEST_F(CollectEndings, ExitStatusReturnAndUnderscoreExit) {
  auto a = ending("burn:10 exit:5", 5);
  EXPECT_EQ(a.collector_exit, "exit");
  EXPECT_EQ(a.exit_status, 5);
  EXPECT_EQ(a.end_how, "exit");
  EXPECT_EQ(a.end_status, 5);
  auto b = ending("burn:10", 0);  // return from main
  EXPECT_EQ(b.collector_exit, "exit");
  EXPECT_EQ(b.end_status, 0);
  auto c = ending("burn:10 _exit:4", 4);
  EXPECT_EQ(c.collector_exit, "_exit");
  EXPECT_EQ(c.end_status, 4);
}

TEST_F(CollectEndings, AbortAndFatalSignals) {
  auto a = ending("burn:10 abort", 128 + SIGABRT);
  EXPECT_EQ(a.collector_exit, "abort");
  EXPECT_EQ(a.end_how, "signal");
  EXPECT_EQ(a.end_signal_name, "SIGABRT");
  auto s = ending("burn:10 raise:SEGV", 128 + SIGSEGV);
  EXPECT_EQ(s.collector_exit, "");  // the collector never saw it
  EXPECT_EQ(s.end_how, "signal");
  EXPECT_EQ(s.end_status, SIGSEGV);
  auto h = er_print("-header test.2.er");
  EXPECT_EQ(h.status, 0) << h.err;
}

TEST_F(CollectEndings, SizeLimitStopsEventsButNotSamples) {
  // 24 threads each need a 64 KiB profile block of their own: more than -L 1 (16 blocks).
  auto c = collect("-S off -L 1 -p hi " + family() + " threads:24:30 burn:30");
  ASSERT_EQ(c.status, 0) << c.err;
  auto e = open("test.1.er");
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->log.limit_reached);
  EXPECT_GT(e->log.limit_reached_ns, 0u);
  auto size = std::filesystem::file_size(path("test.1.er/profile"));
  EXPECT_LE(size, 4096u + 16 * 65536u);
  ASSERT_FALSE(e->samples.empty());
  EXPECT_EQ(e->samples.back().rec.reason, format::kSampleEnd);
  EXPECT_GT(e->samples.back().rec.tstamp_ns, e->log.limit_reached_ns);
  EXPECT_FALSE(e->clock.empty());  // what came before the limit is kept
  // Without the limit every thread is there.
  ASSERT_EQ(collect("-S off -L unlimited -p hi " + family() + " threads:24:30").status, 0);
  auto u = open("test.2.er");
  ASSERT_TRUE(u);
  EXPECT_FALSE(u->log.limit_reached);
  std::set<uint32_t> tids;
  for (const auto& s : u->clock) tids.insert(s.tid);
  EXPECT_GE(tids.size(), 24u);
}

// Kernel CPU time (user+system) of a process, in seconds.
double process_cpu(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t p = text.rfind(')');
  if (p == std::string::npos) return 0;
  std::istringstream rest(text.substr(p + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; rest >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(field);
    if (i == 15) break;
  }
  return ticks / double(sysconf(_SC_CLK_TCK));
}

TEST_F(CollectEndings, SigkillAtARandomMomentKeepsWhatWasWritten) {
  std::random_device rd;
  std::uniform_int_distribution<int> delay_ms(150, 700);
  int delay = delay_ms(rd);
  SCOPED_TRACE("kill after " + std::to_string(delay) + " ms");
  pid_t collect_pid = fork();
  if (collect_pid == 0) {
    if (chdir(dir_.c_str()) != 0) _exit(126);
    freopen("/dev/null", "w", stdout);
    std::string prog = family();
    std::string collect_bin = bin("collect");
    execl(collect_bin.c_str(), "collect", "-S", "off", prog.c_str(), "burn:50", "forever", (char*)nullptr);
    _exit(127);
  }
  ASSERT_GT(collect_pid, 0);
  // The target's pid, from collect's "target" line.
  pid_t target = 0;
  for (int i = 0; i < 500 && !target; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::string log = read("test.1.er/log");
    size_t p = log.find(" target pid=");
    if (p != std::string::npos) target = std::atoi(log.c_str() + p + 12);
  }
  ASSERT_GT(target, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(delay));
  double cpu = process_cpu(target);
  kill(target, SIGKILL);
  int st = 0;
  waitpid(collect_pid, &st, 0);
  // collect ends as the target did, by the signal (after writing the experiment's end).
  EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) << "wait status " << st;
  auto e = open("test.1.er");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->log.end_how, "signal");
  EXPECT_EQ(e->log.end_signal_name, "SIGKILL");
  EXPECT_EQ(e->log.collector_exit, "");
  // Samples are in the page cache the moment they are written: all but the last few tens of
  // milliseconds of CPU are there.
  double total = 0;
  for (const auto& s : e->clock) total += double(s.ns[format::kMsUser] + s.ns[format::kMsSystem]) / 1e9;
  EXPECT_GT(total, 0.7 * cpu - 0.05) << "recorded " << total << " s of " << cpu << " s";
  EXPECT_LE(total, cpu + 0.05);
  auto rows = user_seconds("test.1.er");
  EXPECT_GT(seconds_of(rows, "burn_forever"), 0.5 * cpu - 0.05);
  EXPECT_FALSE(e->samples.empty());
  EXPECT_EQ(e->samples.front().rec.reason, format::kSampleStart);
}

TEST_F(CollectEndings, KillingCollectToo) {
  // Both killed: no "end" line at all, no archives yet: the first open archives the objects.
  pid_t collect_pid = fork();
  if (collect_pid == 0) {
    if (chdir(dir_.c_str()) != 0) _exit(126);
    freopen("/dev/null", "w", stdout);
    std::string prog = family();
    std::string collect_bin = bin("collect");
    execl(collect_bin.c_str(), "collect", "-S", "off", prog.c_str(), "forever", (char*)nullptr);
    _exit(127);
  }
  pid_t target = 0;
  for (int i = 0; i < 500 && !target; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::string log = read("test.1.er/log");
    size_t p = log.find(" target pid=");
    if (p != std::string::npos) target = std::atoi(log.c_str() + p + 12);
  }
  ASSERT_GT(target, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  kill(collect_pid, SIGKILL);
  kill(target, SIGKILL);
  waitpid(collect_pid, nullptr, 0);
  EXPECT_FALSE(exists("test.1.er/archives"));
  auto e = open("test.1.er");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->log.end_how, "");
  EXPECT_TRUE(e->archived_on_open);
  EXPECT_TRUE(exists("test.1.er/archives"));
  EXPECT_FALSE(e->clock.empty());
}

}  // namespace
}  // namespace erkit::e2e
