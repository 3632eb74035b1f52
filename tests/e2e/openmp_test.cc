// OpenMP user model (seed-spec §2.8, §6.10, §14.12-14.13; docs/openmp.md) over the programs of
// tests/programs/openmp built by GCC (libgomp, interposed), Clang (libomp, OMPT) and gfortran:
// a region in which thread 0 does 3x the work of the others, a critical section and a lock. The
// experiment is analysed with the model itself (exact nanoseconds per thread through a thread
// filter): OMP Work + Wait + Overhead equal Total LWP Time per thread, the region shows
// under its function and main in the user view with nearly all the time, the waiting threads'
// time under <OMP-implicit_barrier> equals what the imbalance implies (the heavy thread's work
// minus their own, within 10 % plus the sampling margin), critical and lock waits show under
// their pseudo-functions; the expert view names the outlined function, the machine view shows
// the runtime as measured.
#include <cmath>

#include "openmp_fixture.h"

namespace erkit::e2e {
namespace {

TEST_P(OpenMp, ImbalanceUnderImplicitBarrier) {
  constexpr int kRegions = 4;
  auto p = record(fmt::format("imbalance 24000000 {}", kRegions));
  ASSERT_TRUE(p);
  // Every thread's time is in exactly one of the OMP metrics.
  ASSERT_GE(p->threads(0).size(), size_t(kThreads));
  for (const auto& th : p->threads(0)) {
    only_thread(*p, th.number);
    Omp o = omp_of(*p);
    EXPECT_EQ(o.work + o.wait + o.over, o.total) << "thread " << th.number;
  }
  p->set_event_filter(nullptr, false);
  // The user view: the region under its function under main, with nearly all the time.
  FuncId region = find(*p, "imbalance -- OMP parallel region from line ");
  FuncId imb = find(*p, "imbalance");
  FuncId barrier = find(*p, "<OMP-implicit_barrier>");
  ASSERT_NE(region, 0u) << "no region function";
  ASSERT_NE(barrier, 0u);
  int64_t total = p->totals()[model::kTotal];
  EXPECT_GT(double(incl(*p, region)), 0.85 * double(total));
  auto callers = [&](FuncId f) {
    std::vector<std::string> out;
    for (const auto& e : p->callers_callees(f).callers) out.push_back(p->functions().at(e.other).name);
    return out;
  };
  EXPECT_EQ(callers(region), std::vector<std::string>{"imbalance"});
  EXPECT_EQ(callers(imb), std::vector<std::string>{"main"});
  for (FuncId f = 0; f < p->functions().size(); ++f) {
    const std::string& n = p->functions().at(f).name;
    bool runtime = n.find("GOMP_") == 0 || n.find("__kmp") == 0 || n.find("gomp_") == 0;
    if (runtime) {
      EXPECT_EQ(incl(*p, f), 0) << n << " shows in the user view";
    }
  }
  // The heavy thread (the master, OpenMP thread 0) and the others: the others wait at the
  // implicit barrier for the heavy thread's work minus their own.
  FuncId work = find(*p, "work");
  ASSERT_NE(work, 0u);
  std::vector<int64_t> work_ns, work_cpu, wait_ns;
  for (const auto& th : p->threads(0)) {
    only_thread(*p, th.number);
    if (incl(*p, work) == 0) continue;  // not a team thread
    work_ns.push_back(incl(*p, work));
    work_cpu.push_back(incl(*p, work, model::kUser));
    wait_ns.push_back(incl(*p, barrier));
  }
  p->set_event_filter(nullptr, false);
  ASSERT_EQ(work_ns.size(), size_t(kThreads));
  size_t heavy = size_t(std::max_element(work_cpu.begin(), work_cpu.end()) - work_cpu.begin());
  for (size_t i = 0; i < work_ns.size(); ++i) {
    if (i == heavy) continue;
    // The design: 3x the CPU work (user CPU time does not depend on the machine's load).
    EXPECT_NEAR(double(work_cpu[heavy]) / double(work_cpu[i]), 3.0, 0.45) << "thread " << i;
    double implied = double(work_ns[heavy] - work_ns[i]);
    EXPECT_NEAR(double(wait_ns[i]), implied, 0.10 * implied + margin(kRegions))
        << "thread " << i << ": barrier " << wait_ns[i] << " ns, work " << work_ns[i] << " vs " << work_ns[heavy];
  }
  // The heavy thread hardly waits.
  EXPECT_LT(double(wait_ns[heavy]), 0.10 * double(work_ns[heavy]) + margin(kRegions));

  // Expert view: the outlined function named in the region's frame; machine view: as measured.
  p->set_view_mode(ViewMode::kExpert);
  p->function_metrics();
  FuncId expert = find(*p, "imbalance -- OMP parallel region from line ");
  FuncId expert_named = 0;
  for (FuncId f = 0; f < p->functions().size(); ++f) {
    const std::string& n = p->functions().at(f).name;
    if (n.rfind("imbalance -- OMP parallel region from line ", 0) == 0 && n.back() == ']' && incl(*p, f) > 0)
      expert_named = f;
  }
  // GOMP_parallel hands the collector the outlined function; with libomp the interposed
  // __kmpc_fork_call notes it (Clang's outlined function tail-calls work(): it is not on the
  // stack). The name is the GCC or the Clang form.
  ASSERT_NE(expert, 0u);
  ASSERT_NE(expert_named, 0u) << "expert view does not name the outlined function";
  EXPECT_GT(double(incl(*p, expert_named)), 0.85 * double(total));
  const std::string& en = p->functions().at(expert_named).name;
  EXPECT_NE(en.find(GetParam() == "omp_imbalance_gcc" ? " [imbalance._omp_fn." : " [.omp_outlined."), std::string::npos)
      << en;
  // Exactly the program's region, named after imbalance and its line, with one outlined
  // function in the expert view.
  p->set_view_mode(ViewMode::kUser);
  const std::vector<std::string> user = {"imbalance -- OMP parallel region from line 23"};
  EXPECT_EQ(omp_frames(*p), user);
  expect_outlined(expert_functions(*p, user), {"imbalance._omp_fn.0"}, {".omp_outlined."}, *p);
  p->set_view_mode(ViewMode::kMachine);
  EXPECT_EQ(incl(*p, barrier), 0);
  EXPECT_EQ(incl(*p, region), 0);
  EXPECT_EQ(p->totals()[model::kTotal], total);
}

TEST_P(OpenMp, CriticalAndLockWaits) {
  for (const char* mode : {"critical", "lock"}) {
    SCOPED_TRACE(mode);
    auto p = record(fmt::format("{} 1000000 30", mode), std::string(mode) + ".er");
    ASSERT_TRUE(p);
    std::string fn = std::string(mode) == "critical" ? "critical_work" : "lock_work";
    FuncId region = find(*p, fn + " -- OMP parallel region from line ");
    FuncId wait = find(*p, std::string(mode) == "critical" ? "<OMP-critical_section_wait>" : "<OMP-lock_wait>");
    FuncId work = find(*p, "work");
    ASSERT_NE(region, 0u);
    ASSERT_NE(wait, 0u);
    // Three threads take turns: while one works inside, the others wait. Interleaved, the
    // waits add up to twice the work; an unfair lock (libgomp's) lets one thread run many turns
    // while the others are not yet waiting (seen: 10 % of the work). Under the pseudo-function:
    double w = double(incl(*p, wait)), k = double(incl(*p, work));
    EXPECT_GT(w, 0.03 * k) << "wait " << w << " work " << k;
    // The wait is OMP Wait, under the region.
    EXPECT_EQ(p->function_metrics().incl[wait][model::kOmpWait], incl(*p, wait));
    bool under_region = false;
    for (const auto& e : p->callers_callees(wait).callers) under_region |= e.other == region;
    if (std::string(mode) == "lock") {
      FuncId lock_caller = find(*p, "lock_work -- OMP parallel region");
      for (const auto& e : p->callers_callees(wait).callers) under_region |= e.other == lock_caller;
    }
    EXPECT_TRUE(under_region);
  }
}

INSTANTIATE_TEST_SUITE_P(Runtimes, OpenMp, ::testing::Values("omp_imbalance_gcc", "omp_imbalance_clang"));

// gfortran: the same libgomp entry points.
TEST_F(CollectTest, OpenMpFortranImbalance) {
  if (!std::filesystem::exists(program("omp_imbalance_f90"))) GTEST_SKIP() << "gfortran not installed";
  auto r = run(fmt::format("cd {} && OMP_NUM_THREADS=3 OMP_WAIT_POLICY=passive {} -p hi -o f.er {} 6000000 10", dir_,
                           bin("collect"), program("omp_imbalance_f90")));
  ASSERT_EQ(r.status, 0) << r.err;
  auto e = open("f.er");
  ASSERT_TRUE(e);
  Profile p;
  p.add_experiment(std::move(*e));
  p.function_metrics();
  FuncId region = 0, barrier = 0;
  for (FuncId f = 0; f < p.functions().size(); ++f) {
    const std::string& n = p.functions().at(f).name;
    if (n.find("imbalance -- OMP parallel region from line ") != std::string::npos) region = f;
    if (n == "<OMP-implicit_barrier>") barrier = f;
  }
  ASSERT_NE(region, 0u);
  ASSERT_NE(barrier, 0u);
  const auto& t = p.totals();
  EXPECT_EQ(t[model::kOmpWork] + t[model::kOmpWait] + t[model::kOmpOver], t[model::kTotal]);
  EXPECT_GT(double(p.function_metrics().incl[region][model::kTotal]), 0.85 * double(t[model::kTotal]));
  // Two threads wait 2/3 of each region: about 4/9 of all the time at the barrier.
  EXPECT_GT(double(p.function_metrics().incl[barrier][model::kTotal]), 0.25 * double(t[model::kTotal]));
}

}  // namespace
}  // namespace erkit::e2e
