// Issue 16: collect -P <pid> attaches to a running program without loading anything into it
// (docs/collect.md, *Attaching to a running process*). The program (attach_target) burns CPU
// in two threads and sleeps in a third; the test reads each thread's on-CPU time from
// /proc/<pid>/task/<tid>/schedstat just before and after collect runs (the kernel's truth) and
// checks the experiment against it, then ends the program and checks its output and exit
// status are what they are without collect.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "collect_fixture.h"
#include "format/experiment_format.h"

namespace erkit::e2e {
namespace {

class CollectAttach : public CollectTest {
 protected:
  // Starts attach_target with a pipe on its stdin and its stdout in out.txt.
  void start_target() {
    // Close-on-exec: collect (run through a shell) must not hold the write end open.
    ASSERT_EQ(pipe2(in_, O_CLOEXEC), 0);
    pid_ = fork();
    ASSERT_GE(pid_, 0);
    if (pid_ == 0) {
      dup2(in_[0], 0);
      close(in_[0]);
      close(in_[1]);
      int out = ::open(path("out.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(out, 1);
      execl(program("attach_target").c_str(), "attach_target", (char*)nullptr);
      _exit(127);
    }
    close(in_[0]);
    // Running when its three threads exist and have named themselves.
    for (int i = 0; i < 1000 && (!tid_named("burn_worker") || !tid_named("wait_stdin")); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_EQ(tids().size(), 3u);
  }
  // Ends the program (end of its stdin) and returns its wait status.
  int stop_target() {
    if (pid_ <= 0) return -1;
    close(in_[1]);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return status;
  }
  void TearDown() override {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      stop_target();
    }
    CollectTest::TearDown();
  }
  std::vector<uint32_t> tids() const {
    std::vector<uint32_t> out;
    std::error_code ec;
    for (const auto& d : std::filesystem::directory_iterator("/proc/" + std::to_string(pid_) + "/task", ec))
      out.push_back(uint32_t(std::stoul(d.path().filename().string())));
    return out;
  }
  // On-CPU ns of each thread, by its name (comm).
  std::map<std::string, uint64_t> cpu_by_name() const {
    std::map<std::string, uint64_t> out;
    for (uint32_t tid : tids()) {
      std::string base = "/proc/" + std::to_string(pid_) + "/task/" + std::to_string(tid) + "/";
      std::ifstream comm(base + "comm"), sched(base + "schedstat");
      std::string name;
      uint64_t ns = 0;
      std::getline(comm, name);
      sched >> ns;
      out[tid == uint32_t(pid_) ? "main" : name] = ns;
    }
    return out;
  }
  uint32_t tid_named(const std::string& name) const {
    for (uint32_t tid : tids()) {
      std::ifstream comm("/proc/" + std::to_string(pid_) + "/task/" + std::to_string(tid) + "/comm");
      std::string n;
      std::getline(comm, n);
      if (n == name) return tid;
    }
    return 0;
  }
  static double mono() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
  }
  pid_t pid_ = -1;
  int in_[2] = {-1, -1};
};

TEST_F(CollectAttach, RecordsEachThreadsCpuAndTheHotFunctionsAndDetaches) {
  start_target();
  const uint32_t main_tid = uint32_t(pid_), worker = tid_named("burn_worker"), waiter = tid_named("wait_stdin");
  ASSERT_NE(worker, 0u);
  ASSERT_NE(waiter, 0u);
  auto before = cpu_by_name();
  double t0 = mono();
  auto c = collect("-P " + std::to_string(pid_) + " -t 1.5 -S 0.25 -o a.er");
  double t1 = mono();
  auto after = cpu_by_name();
  if (c.status != 0 && c.err.find("cannot open a perf task-clock event") != std::string::npos)
    GTEST_SKIP() << "perf events unavailable here: " << c.err;
  ASSERT_EQ(c.status, 0) << c.err << c.out;
  EXPECT_NE(c.out.find("detached from process " + std::to_string(main_tid)), std::string::npos) << c.out;
  // The program runs on unchanged: same threads, then its own output and exit status.
  EXPECT_EQ(tids().size(), 3u);
  int status = stop_target();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
  EXPECT_EQ(read("out.txt"), "attach_target: done\n");

  auto e = open("a.er");
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->problems.empty()) << e->problems.front().file << ": " << e->problems.front().message;
  const double period = double(e->log.clock_interval_ns) * 1e-9;
  const double recorded = double(e->duration_ns()) * 1e-9;
  EXPECT_GE(recorded, 1.4);
  // Time collect ran but did not record (its start and end): a thread used at most that much
  // CPU outside the recorded span.
  const double outside = (t1 - t0) - recorded;
  std::map<uint32_t, double> cpu;
  size_t samples = 0;
  for (const auto& s : e->clock) {
    double v = double(s.ns[format::kMsUser] + s.ns[format::kMsSystem]) * 1e-9;
    if (v > 0) ++samples;
    cpu[s.tid] += v;
  }
  // Each thread's CPU time: the sum of whole periods, within two periods of the kernel's count
  // over the recorded span, which lies inside [before, after].
  for (auto [tid, name] : {std::pair{main_tid, std::string("main")}, std::pair{worker, std::string("burn_worker")}}) {
    double truth = double(after[name] - before[name]) * 1e-9;
    EXPECT_LE(cpu[tid], truth + 2 * period) << name;
    EXPECT_GE(cpu[tid], truth - outside - 2 * period) << name << " (collect ran " << (t1 - t0) << " s)";
    EXPECT_GE(cpu[tid], 3 * period) << name << ": the thread ran";
  }
  EXPECT_LT(cpu[waiter], 2 * period) << "the waiting thread took no CPU";

  // The hot functions by name, with stacks complete to main (initial thread) and to the
  // thread's start routine (worker); the waiter's sleep is Other Wait in wait_stdin.
  auto p = er_print("-metrics e.user:i.user:i.owait -functions a.er");
  ASSERT_EQ(p.status, 0) << p.err;
  auto rows = parse_function_list(p.out);
  auto value = [&](const std::string& fn, size_t i) { return function_value(rows, fn, i); };
  const double main_cpu = cpu[main_tid], worker_cpu = cpu[worker];
  EXPECT_GE(value("burn_main", 0), 0.9 * main_cpu - 2 * period) << p.out;
  EXPECT_GE(value("burn_worker", 0), 0.9 * worker_cpu - 2 * period) << p.out;
  EXPECT_GE(value("main", 1), 0.98 * value("burn_main", 0)) << "stacks of burn_main reach main\n" << p.out;
  EXPECT_GE(value("worker", 1), 0.98 * value("burn_worker", 0)) << "stacks of burn_worker reach worker\n" << p.out;
  // Asleep for the whole recorded span (less what the sampler's first look could not see).
  EXPECT_NEAR(value("wait_stdin", 2), recorded, 0.1 * recorded + 2 * 0.01) << p.out;
  // Periodic samples (-S 0.25) from /proc, between a start and an end sample collect wrote
  // (no collector in the process does): every 0.25 s of the recorded span, never early, at
  // least half of them on a loaded machine; each counts the program's 3 threads, and the
  // process's CPU between start and end holds what the clock samples recorded.
  ASSERT_GE(e->samples.size(), 2u);
  const auto& first = e->samples.front().rec;
  const auto& last = e->samples.back().rec;
  EXPECT_EQ(first.reason, format::kSampleStart);
  EXPECT_EQ(last.reason, format::kSampleEnd);
  int periodic = 0;
  for (const auto& s : e->samples) {
    EXPECT_EQ(s.rec.nthreads, 3u);
    if (s.rec.reason != format::kSamplePeriodic) continue;
    ++periodic;
    EXPECT_GE(double(s.rec.tstamp_ns) * 1e-9, 0.25 * periodic - 1e-6) << "periodic sample " << periodic << " early";
  }
  // Due from the experiment's start (time 0: collect's start line), up to the end sample.
  const int due = int(double(last.tstamp_ns) * 1e-9 / 0.25);
  EXPECT_LE(periodic, due);
  EXPECT_GE(periodic, (due + 1) / 2);
  double sampled_cpu = 0;
  for (const auto& [tid, v] : cpu) sampled_cpu += v;
  const double process_cpu = double(last.utime_ns + last.stime_ns - first.utime_ns - first.stime_ns) * 1e-9;
  // The events count from before the start sample to after the end sample (collect's start and
  // end around them, at most what collect ran outside that span on each of the 2 burning
  // threads); each thread's samples are whole periods.
  const double unsampled = 2 * std::max(0.0, (t1 - t0) - double(last.tstamp_ns - first.tstamp_ns) * 1e-9);
  EXPECT_GE(process_cpu, sampled_cpu - unsampled - 3 * period) << "start and end samples from /proc";
  // ... and no more than the kernel's count over collect's whole run (schedstat before and after).
  double kernel_cpu = 0;
  for (const auto& [name, ns] : after) kernel_cpu += double(ns - before[name]) * 1e-9;
  EXPECT_LE(process_cpu, kernel_cpu + 0.001);
  // Nothing lost: every sample the kernel took was drained.
  EXPECT_NE(read("a.er/log").find(" lost=0 "), std::string::npos) << read("a.er/log");
  EXPECT_GE(samples, 6u);
}

TEST_F(CollectAttach, UntilTheProcessEnds) {
  start_target();
  // collect records until the program ends (no -t): ended by the end of its stdin.
  const std::string args = "-P " + std::to_string(pid_) + " -o b.er";
  RunResult r;
  auto collect_thread = std::thread([this, args, &r] { r = collect(args); });
  // Attached (its start line written), and some time recorded.
  for (int i = 0; i < 1000 && read("b.er/log").find(" start pid=") == std::string::npos; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  int status = stop_target();
  collect_thread.join();
  EXPECT_EQ(WEXITSTATUS(status), 3);
  if (r.status != 0 && r.err.find("cannot open a perf task-clock event") != std::string::npos)
    GTEST_SKIP() << "perf events unavailable here: " << r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  std::string log = read("b.er/log");
  EXPECT_NE(log.find(" exit how=exit"), std::string::npos) << log;
  EXPECT_NE(log.find(" sampler where=collect looks="), std::string::npos) << log;
  auto e = open("b.er");
  ASSERT_TRUE(e);
  EXPECT_FALSE(e->clock.empty());
}

TEST(CollectAttachRefusals, WhatCannotWorkWithoutTheCollectorIsRefused) {
  auto bad = run(bin("collect") + " -P abc");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.err.find("-P needs a process id, not 'abc'"), std::string::npos) << bad.err;
  auto none = run(bin("collect") + " -P 999999999");
  EXPECT_NE(none.status, 0);
  auto gone = run(bin("collect") + " -P 4194303");  // above pid_max's usual limit: no such process
  EXPECT_NE(gone.status, 0);
  EXPECT_NE(gone.err.find("there is no process 4194303"), std::string::npos) << gone.err;
  auto heap = run(bin("collect") + " -H on -s on -P 1");
  EXPECT_NE(heap.status, 0);
  EXPECT_NE(heap.err.find("-s (synchronization tracing), -H (heap tracing) cannot be used when attaching"),
            std::string::npos)
      << heap.err;
  auto both = run(bin("collect") + " -P 1 /bin/true");
  EXPECT_NE(both.status, 0);
  EXPECT_NE(both.err.find("not both"), std::string::npos) << both.err;
  auto t = run(bin("collect") + " -t 2 /bin/true");
  EXPECT_NE(t.status, 0);
  EXPECT_NE(t.err.find("-t (a duration) needs -P <pid>"), std::string::npos) << t.err;
}

TEST(CollectAttachRefusals, AnotherUsersProcessNeedsPrivilege) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to drop to another user";
  // A process of another user (nobody), attached to by collect running as a third user: refused
  // with the privilege it needs.
  auto r = run("sh -c 'setpriv --reuid=65534 --regid=65534 --clear-groups sleep 5 & p=$!; sleep 0.2; "
               "setpriv --reuid=65533 --regid=65533 --clear-groups " + bin("collect") +
               " -d /tmp -P $p; rc=$?; kill $p; exit $rc'");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("belongs to another user"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("CAP_SYS_PTRACE"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace erkit::e2e
