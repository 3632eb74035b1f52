// Kernel experiments (er_kernel) in the model: their clock samples give KCPU Cycles and Kthr
// Time instead of the user microstates, the -T pseudo-PCs become <SLEEPING>, <STALLED> and
// <USER_MODE>, and filters see LWP = PID and Thread = TID (seed Table 5-1).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "format/host_writer.h"
#include "model/filter/filter.h"
#include "model/profile.h"

namespace erkit::model {
namespace {

class KernelMetrics : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/kernel_metrics_" + std::to_string(getpid()) + ".er";
    std::filesystem::remove_all(dir_);
    format::HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    w.log_line("0 setting name=clock interval_ns=1000000");
    w.log_line("0 setting name=kernel source=perf_event cpus=2 threads=1");
    w.log_line("0 start pid=1 ppid=0 exe=\"/er_kernel\" monotonic_ns=5 clock_interval_ns=1000000");
    w.log_line("0 task tid=101 pid=100 comm=\"a\"");
    w.log_line("0 task tid=201 pid=200 comm=\"b\"");
    auto sample = [&](uint32_t tid, uint64_t pc, uint32_t flags, uint32_t state, uint64_t ns) {
      format::ClockSampleRecord r{};
      r.tid = tid;
      r.tstamp_ns = 1000;
      r.stack_id = w.stack({pc});
      r.cpu = 0;
      r.flags = flags;
      r.ns[state] = ns;
      w.clock_sample(r);
    };
    const uint32_t k = format::kClockFlagKernel, kt = k | format::kClockFlagKernelThread;
    sample(101, 0xffffffff81000010ull, k, format::kMsSystem, 3000000);   // KCPU of process 100
    sample(201, 0xffffffff81000010ull, k, format::kMsSystem, 5000000);   // KCPU of process 200
    sample(101, format::kKernelSleepingPc, kt, format::kMsOtherWait, 700000000);
    sample(101, format::kKernelStalledPc, kt, format::kMsWaitCpu, 20000000);
    sample(101, format::kKernelUserModePc, kt, format::kMsUser, 2000000);
    w.finish();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void load() {
    auto r = reader::open_experiment(dir_);
    ASSERT_TRUE(r.experiment) << r.error;
    profile_.add_experiment(std::move(*r.experiment));
  }
  int64_t excl_of(const std::string& name, uint32_t metric) {
    const auto& fm = profile_.function_metrics();
    for (FuncId f = 0; f < profile_.functions().size(); ++f)
      if (profile_.functions().at(f).name == name) return fm.excl[f][metric];
    ADD_FAILURE() << "no function " << name;
    return -1;
  }
  std::string dir_;
  Profile profile_;
};

TEST_F(KernelMetrics, KernelSamplesGiveKcpuAndKthrOnly) {
  load();
  auto avail = profile_.available_metrics();
  EXPECT_EQ(avail, (std::vector<uint32_t>{kKcycles, kKthr}));
  const auto& t = profile_.totals();
  EXPECT_EQ(t[kKcycles], 8000000);
  EXPECT_EQ(t[kKthr], 722000000);
  EXPECT_EQ(t[kUser], 0);
  EXPECT_EQ(t[kSystem], 0);
  EXPECT_EQ(excl_of("<SLEEPING>", kKthr), 700000000);
  EXPECT_EQ(excl_of("<STALLED>", kKthr), 20000000);
  EXPECT_EQ(excl_of("<USER_MODE>", kKthr), 2000000);
  EXPECT_TRUE(profile_.functions().at(0).pseudo);
}

TEST_F(KernelMetrics, FiltersSeeThePidAsLwpAndTheTidAsThread) {
  load();
  profile_.set_event_filter([](const filter::EventView& v) { return v.pid == 100 && v.lwpid == 100 && v.thrid == 101; },
                            false);
  EXPECT_EQ(profile_.totals()[kKcycles], 3000000);
  EXPECT_EQ(profile_.totals()[kKthr], 722000000);
  profile_.set_event_filter([](const filter::EventView& v) { return v.pid == 200; }, false);
  EXPECT_EQ(profile_.totals()[kKcycles], 5000000);
  EXPECT_EQ(profile_.totals()[kKthr], 0);
}

TEST_F(KernelMetrics, UserAndKernelExperimentsTogetherOfferBoth) {
  load();
  // A user experiment beside it: its clock metrics join the kernel ones.
  std::string user = dir_ + ".user.er";
  std::filesystem::remove_all(user);
  {
    format::HostExperimentWriter w(user);
    w.log_line("0 setting name=clock interval_ns=10000000");
    w.log_line("0 start pid=100 ppid=1 exe=\"/a\" clock_interval_ns=10000000");
    format::ClockSampleRecord r{};
    r.tid = 101;
    r.stack_id = w.stack({format::kUnwindFailedPc});
    r.ns[format::kMsUser] = 10000000;
    w.clock_sample(r);
  }
  auto r = reader::open_experiment(user);
  ASSERT_TRUE(r.experiment) << r.error;
  profile_.add_experiment(std::move(*r.experiment));
  auto avail = profile_.available_metrics();
  EXPECT_NE(std::find(avail.begin(), avail.end(), kUser), avail.end());
  EXPECT_NE(std::find(avail.begin(), avail.end(), kKcycles), avail.end());
  EXPECT_EQ(profile_.totals()[kUser], 10000000);
  EXPECT_EQ(profile_.totals()[kKcycles], 8000000);
  std::filesystem::remove_all(user);
}

}  // namespace
}  // namespace erkit::model
