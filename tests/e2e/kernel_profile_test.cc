// er_kernel end to end (seed-spec §9, docs/er_kernel.md): the kernel's clock profile of a
// process agrees with the kernel's own accounting of its system time, shows the syscall entry
// and the VFS write path, opens together with the user experiment of the same run on one
// clock, and -T gives a thread's <SLEEPING> time. Needs root, CAP_PERFMON+CAP_SYSLOG, or
// permissive sysctls: skipped, saying which, when this user lacks them.
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "e2e_util.h"
#include "reader/experiment.h"

extern char** environ;

namespace erkit::e2e {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// "value <name> <number>" lines of a truth file.
std::map<std::string, double> values(const std::string& path) {
  std::map<std::string, double> out;
  std::istringstream in(slurp(path));
  std::string kind, name;
  double v;
  while (in >> kind >> name >> v)
    if (kind == "value") out[name] = v;
  return out;
}

pid_t spawn_shell(const std::string& command) {
  pid_t pid;
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  if (posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) != 0) return -1;
  return pid;
}

int wait_exit(pid_t pid) {
  int st = 0;
  if (waitpid(pid, &st, 0) != pid) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

template <typename Pred>
bool wait_until(Pred p, int seconds) {
  for (int i = 0; i < seconds * 100; ++i) {
    if (p()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

class ErKernel : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_workdir(std::string("kernel_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    static const std::string why_not = unavailable(dir_);  // probed once per test process
    if (!why_not.empty()) GTEST_SKIP() << why_not;
  }
  // Why er_kernel cannot record here ("" when it can): the privileges it says are missing
  // (-n), or perf events refused when it tries.
  static std::string unavailable(const std::string& dir) {
    auto dry = run("cd " + dir + " && " + bin("er_kernel") + " -n -p on");
    if (dry.status != 0) return "er_kernel -n failed: " + dry.err;
    if (dry.out.find("missing privilege") != std::string::npos) return "er_kernel lacks privileges here:\n" + dry.out;
    auto probe = run("cd " + dir + " && " + bin("er_kernel") + " -p on -t 0.05 -o probe.er");
    if (probe.status != 0 && probe.err.find("cannot open the cpu-clock event") != std::string::npos)
      return "perf events are not available here: " + probe.err;
    std::filesystem::remove_all(dir + "/probe.er");
    return "";
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  RunResult in_dir(const std::string& cmd) { return run("cd " + dir_ + " && " + cmd); }
  // One metric column (seconds) of every function, with an optional filter.
  std::map<std::string, double> seconds(const std::string& metric, const std::string& exps,
                                        const std::string& filter = "") {
    std::string f = filter.empty() ? "" : " -filters '" + filter + "'";
    auto p = in_dir(bin("er_print") + f + " -limit 0 -metrics " + metric + ":name -functions " + exps);
    EXPECT_EQ(p.status, 0) << p.err;
    std::map<std::string, double> out;
    for (const auto& [name, row] : parse_function_list(p.out))
      if (!row.values.empty()) out[name] = row.values[0];
    return out;
  }
  std::string dir_;
};

double any_of(const std::map<std::string, double>& rows, std::initializer_list<const char*> names) {
  double best = 0;
  for (const char* n : names)
    if (auto it = rows.find(n); it != rows.end()) best = std::max(best, it->second);
  return best;
}

// er_kernel collect: a process spending ~1 s in system calls, then 0.3 s in user code.
TEST_F(ErKernel, SystemTimeOfAProcessMatchesItsKcpuAndBothExperimentsOpenTogether) {
  auto r = in_dir(bin("er_kernel") + " -p hi -q 0 collect -p hi " + program("kernel_syscall_mix") + " truth.txt 1000 300");
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_TRUE(std::filesystem::exists(dir_ + "/ktest.1.er/log")) << r.err;
  ASSERT_TRUE(std::filesystem::exists(dir_ + "/test.1.er/log")) << r.err;
  auto truth = values(dir_ + "/truth.txt");
  ASSERT_TRUE(truth.count("pid") && truth.count("syscall_cpu_ns")) << slurp(dir_ + "/truth.txt");
  // The system-call phase's CPU time (the thread's exact CPU clock) is the process's system
  // time: by construction nearly all of it (97-99 % here) is spent in the kernel. getrusage's split is
  // printed for information only: on a kernel with tick-based accounting (CONFIG_TICK_CPU_
  // ACCOUNTING, HZ 250) it varied from 0.65 to 1.21 s for this same work (docs/er_kernel.md).
  const double sys_s = truth["syscall_cpu_ns"] / 1e9;
  ASSERT_GT(sys_s, 0.3) << "the program spent too little time in the kernel to compare";

  // KCPU Cycles of the process (LWP = PID in kernel experiments) against its system time. The
  // samples come every 0.997 ms: the margin is 10 %, or three standard deviations of the
  // sample count when that is wider. The user phase (user_cpu_ns) must not count.
  const std::string pid_filter = "PID == " + std::to_string(int64_t(truth["pid"]));
  auto excl = seconds("e.kcycles", "ktest.1.er", pid_filter);
  const double kcpu = excl["<Total>"];
  const double n = sys_s / 0.000997;
  const double margin = std::max(0.10, 3 / std::sqrt(n));
  EXPECT_NEAR(kcpu, sys_s, margin * sys_s)
      << "KCPU " << kcpu << " s, system-call phase " << sys_s << " s, user phase " << truth["user_cpu_ns"] / 1e9
      << " s; getrusage: system " << truth["system_ns"] / 1e9 << " s, user " << truth["user_ns"] / 1e9 << " s";
  // The same through the LWP field (Table 5-1: the LWP of a kernel experiment is the PID).
  auto by_lwp = seconds("e.kcycles", "ktest.1.er", "LWPID == " + std::to_string(int64_t(truth["pid"])));
  EXPECT_DOUBLE_EQ(by_lwp["<Total>"], kcpu);

  // Kernel functions: the system-call entry and the VFS write path, inclusive.
  auto incl = seconds("i.kcycles", "ktest.1.er", pid_filter);
  EXPECT_GT(any_of(incl, {"do_syscall_64", "entry_SYSCALL_64", "entry_SYSCALL_64_after_hwframe", "el0_svc"}), 0.5 * kcpu)
      << "no syscall entry among the kernel functions";
  EXPECT_GT(any_of(incl, {"vfs_write", "ksys_write", "__x64_sys_write", "__arm64_sys_write"}), 0.5 * kcpu)
      << "no VFS write path among the kernel functions";

  // Both experiments in one session: user and kernel metrics side by side.
  auto both = in_dir(bin("er_print") + " -limit 0 -metrics e.user:i.user:e.kcycles:name -functions ktest.1.er test.1.er");
  ASSERT_EQ(both.status, 0) << both.err;
  EXPECT_NE(both.out.find("KCPU Cycles"), std::string::npos) << both.out;
  EXPECT_NE(both.out.find("User CPU"), std::string::npos) << both.out;
  auto rows = parse_function_list(both.out);
  ASSERT_TRUE(rows.count("user_loop")) << both.out;
  ASSERT_GE(rows["user_loop"].values.size(), 2u);
  EXPECT_GT(rows["user_loop"].values[1], 0.1);  // inclusive user time of the 0.3 s user phase
  EXPECT_TRUE(rows.count("do_syscall_64") || rows.count("entry_SYSCALL_64")) << both.out;

  // One clock: the process's kernel samples fall inside the user experiment's run.
  auto k = reader::open_experiment(dir_ + "/ktest.1.er");
  auto u = reader::open_experiment(dir_ + "/test.1.er");
  ASSERT_TRUE(k.experiment && u.experiment);
  const auto& ke = *k.experiment;
  const auto& ue = *u.experiment;
  ASSERT_GT(ke.log.monotonic_start_ns, 0);
  ASSERT_GT(ue.log.monotonic_start_ns, 0);
  const int64_t ustart = ue.log.monotonic_start_ns, uend = ustart + int64_t(ue.duration_ns());
  size_t inside = 0, total = 0;
  for (const auto& s : ke.clock) {
    auto it = ke.log.task_pid.find(s.tid);
    if (it == ke.log.task_pid.end() || it->second != uint32_t(truth["pid"])) continue;
    int64_t t = ke.log.monotonic_start_ns + int64_t(s.tstamp_ns);
    ++total;
    if (t >= ustart - 20000000 && t <= uend + 20000000) ++inside;
  }
  ASSERT_GT(total, 100u);
  // Kernel threads have LWP 0 (Table 5-1): every kworker/ksoftirqd seen is filed under PID 0.
  for (const auto& [tid, comm] : ke.log.task_comm)
    if (comm.rfind("kworker/", 0) == 0 || comm.rfind("ksoftirqd/", 0) == 0) {
      EXPECT_EQ(ke.log.task_pid.at(tid), 0u) << comm;
    }
  EXPECT_GE(double(inside), 0.98 * double(total)) << inside << " of " << total << " samples inside the user run";
}

// -T: a thread that runs 1 s and sleeps 1 s shows <SLEEPING> of about 1 s in Kthr Time.
TEST_F(ErKernel, ChosenThreadSleepingTime) {
  const std::string truth = dir_ + "/truth.txt", go = dir_ + "/go";
  pid_t prog = spawn_shell(program("kernel_sleep_run") + " " + truth + " " + go + " 1000 1000");
  ASSERT_GT(prog, 0);
  ASSERT_TRUE(wait_until([&] { return values(truth).count("tid"); }, 30));
  auto v = values(truth);
  const auto pid = int64_t(v["pid"]), tid = int64_t(v["tid"]);
  pid_t rec = spawn_shell("cd " + dir_ + " && " + bin("er_kernel") + " -p hi -t 60 -o k.er -T " +
                          std::to_string(pid) + "/" + std::to_string(tid) + " 2>er_kernel.err");
  bool started = wait_until([&] { return slurp(dir_ + "/k.er/log").find(" start ") != std::string::npos; }, 30);
  std::ofstream(go) << "go\n";
  int rec_status = wait_exit(rec);
  ASSERT_EQ(wait_exit(prog), 0);
  ASSERT_TRUE(started) << slurp(dir_ + "/er_kernel.err");
  ASSERT_EQ(rec_status, 0) << slurp(dir_ + "/er_kernel.err");
  const std::string err = slurp(dir_ + "/er_kernel.err");
  EXPECT_NE(err.find("threads_ended"), std::string::npos) << err;
  if (size_t w = err.find("no <SLEEPING>/<STALLED> for -T threads"); w != std::string::npos)
    GTEST_SKIP() << "the scheduler tracepoints cannot be used here: " << err.substr(w, err.find('\n', w) - w);
  const double slept = values(truth)["slept_ns"] / 1e9;
  const double cpu = values(truth)["cpu_ns"] / 1e9;  // includes its spin before recording began

  auto kthr = seconds("e.kthr", "k.er");
  ASSERT_TRUE(kthr.count("<SLEEPING>")) << "no <SLEEPING> row";
  EXPECT_NEAR(kthr["<SLEEPING>"], 1.0, 0.1);
  EXPECT_LE(kthr["<SLEEPING>"], slept + 0.002);  // the measured sleep includes waking up
  // On the CPU in user mode: the 1 s of work (and its spin once recording began), never more
  // than the thread's CPU time. <STALLED> is whatever the machine's load made it wait.
  EXPECT_GT(kthr["<USER_MODE>"], 0.9);
  EXPECT_LT(kthr["<USER_MODE>"], cpu + 0.05);
  EXPECT_GT(kthr["<Total>"], 1.9);
  // Thread = TID and LWP = PID (Table 5-1).
  auto by_thread = seconds("e.kthr", "k.er", "THRID == " + std::to_string(tid) + " && LWPID == " + std::to_string(pid));
  EXPECT_DOUBLE_EQ(by_thread["<SLEEPING>"], kthr["<SLEEPING>"]);
}

// Without privileges, er_kernel collect says what is missing and still records the user
// experiment (the kernel part degrades away instead of failing the run).
TEST_F(ErKernel, UnprivilegedUserGetsTheUserExperimentAndAReason) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to drop to an unprivileged user";
  if (access("/usr/bin/setpriv", X_OK) != 0) GTEST_SKIP() << "setpriv (util-linux) is not installed";
  std::string paranoid = slurp("/proc/sys/kernel/perf_event_paranoid");
  if (std::atoi(paranoid.c_str()) <= 0)
    GTEST_SKIP() << "kernel.perf_event_paranoid is " << paranoid << ": every user may profile every CPU";
  std::filesystem::permissions(dir_, std::filesystem::perms::all);
  auto r = in_dir("/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups " + bin("er_kernel") +
                  " -p on -q 0 collect " + program("kernel_syscall_mix") + " truth.txt 50 50");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("Permission denied"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("kernel.perf_event_paranoid <= 0 (now"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("recording the user experiment only"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/ktest.1.er"));
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/test.1.er/log"));
}

TEST_F(ErKernel, MissingThreadIsRefusedClearly) {
  auto r = in_dir(bin("er_kernel") + " -p on -T 1/999999999 -t 1");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no such thread"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/ktest.1.er"));
}

}  // namespace
}  // namespace erkit::e2e
