// Shared fixture of the OpenMP end-to-end tests (openmp_test.cc, openmp_levels_test.cc): the
// programs of tests/programs/openmp recorded with a few threads that sleep when they wait, and
// analysed with the model itself (exact nanoseconds per thread through a thread filter).
#pragma once
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "collect_fixture.h"
#include "model/filter/filter.h"
#include "model/profile.h"

namespace erkit::e2e {

using model::FuncId;
using model::Profile;
using model::ViewMode;

constexpr int kThreads = 3;

struct Omp {
  int64_t total = 0, work = 0, wait = 0, over = 0;
};

class OpenMp : public CollectTest, public ::testing::WithParamInterface<std::string> {
 protected:
  void SetUp() override {
    CollectTest::SetUp();
    if (!std::filesystem::exists(program(GetParam())))
      GTEST_SKIP() << GetParam() << " was not built (compiler or OpenMP runtime missing: scripts/install-deps)";
  }
  // Records `args` of the program with kThreads threads that sleep when they wait (the machine
  // runs other work: spinning waiters would only steal the working thread's CPU), at 1 ms.
  // `env` is put before the command (OMP_MAX_ACTIVE_LEVELS=2 ...).
  std::unique_ptr<Profile> record(const std::string& args, const std::string& name = "t.er",
                                  const std::string& env = "") {
    std::string cmd = fmt::format("{} OMP_NUM_THREADS={} OMP_WAIT_POLICY=passive {} -p hi -o {} {} {}", env, kThreads,
                                  bin("collect"), name, program(GetParam()), args);
    auto r = run("cd " + dir_ + " && " + cmd);
    EXPECT_EQ(r.status, 0) << r.err;
    auto e = open(name);
    if (!e) return nullptr;
    auto p = std::make_unique<Profile>();
    p->add_experiment(std::move(*e));
    p->function_metrics();  // the view's functions (regions, pseudo-functions) exist from here
    return p;
  }
  static FuncId find(const Profile& p, const std::string& prefix) {
    for (FuncId f = 0; f < p.functions().size(); ++f)
      if (p.functions().at(f).name.rfind(prefix, 0) == 0) return f;
    return 0;
  }
  static void only_thread(Profile& p, uint32_t n) {
    p.set_event_filter([n](const filter::EventView& v) { return v.thrid == n; }, false);
  }
  static Omp omp_of(Profile& p) {
    const auto& t = p.totals();
    return {t[model::kTotal], t[model::kOmpWork], t[model::kOmpWait], t[model::kOmpOver]};
  }
  static int64_t incl(Profile& p, FuncId f, uint32_t m = model::kTotal) {
    return f ? p.function_metrics().incl[f][m] : 0;
  }
  // Off-CPU time (a thread asleep at a barrier) is attributed to the state the collector's
  // sampler sees at each look, every 10-20 ms: up to one look period may go to the neighbouring
  // state at each state change, two per region and thread.
  static double margin(int regions) { return 2.0 * regions * 20e6; }
  // The function named exactly `name`, 0 if none.
  static FuncId exact(const Profile& p, const std::string& name) {
    for (FuncId f = 0; f < p.functions().size(); ++f)
      if (p.functions().at(f).name == name) return f;
    return 0;
  }
  // The share of f's inclusive time (metric m) that its callers `from` call.
  static double share_from(Profile& p, FuncId f, const std::vector<FuncId>& from, uint32_t m = model::kTotal) {
    int64_t all = 0, in = 0;
    for (const auto& e : p.callers_callees(f).callers) {
      all += e.values[m];
      if (std::find(from.begin(), from.end(), e.other) != from.end()) in += e.values[m];
    }
    return all ? double(in) / double(all) : 0.0;
  }
  // The names of f's callers, sorted.
  static std::vector<std::string> callers(Profile& p, FuncId f) {
    std::vector<std::string> out;
    for (const auto& e : p.callers_callees(f).callers) out.push_back(p.functions().at(e.other).name);
    std::sort(out.begin(), out.end());
    return out;
  }
  // Every thread's time is in exactly one of the OMP metrics.
  static void expect_omp_split_exact(Profile& p) {
    for (const auto& th : p.threads(0)) {
      only_thread(p, th.number);
      Omp o = omp_of(p);
      EXPECT_EQ(o.work + o.wait + o.over, o.total) << "thread " << th.number;
    }
    p.set_event_filter(nullptr, false);
  }
  bool is_gcc() const { return GetParam() == "omp_imbalance_gcc"; }
};

}  // namespace erkit::e2e
