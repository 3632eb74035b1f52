// Shared fixture of the OpenMP end-to-end tests (openmp_test.cc, openmp_levels_test.cc,
// openmp_tasks_test.cc, openmp_names_test.cc): the programs of tests/programs/openmp recorded
// with a few threads that sleep when they wait, and analysed with the model itself (exact
// nanoseconds per thread through a thread filter); the checks of the region and task records
// and the name look-ups the tests share.
#pragma once
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
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
  // The functions whose name starts with `prefix` and that have time, by name.
  static std::vector<std::string> named(Profile& p, const std::string& prefix) {
    std::vector<std::string> out;
    for (FuncId f = 0; f < p.functions().size(); ++f)
      if (p.functions().at(f).name.rfind(prefix, 0) == 0 && incl(p, f) > 0) out.push_back(p.functions().at(f).name);
    std::sort(out.begin(), out.end());
    return out;
  }
  // The region and task frames that have time (" -- OMP parallel region", " -- OMP task"), by
  // name: in the user view exactly the program's constructs, each named after the function
  // that contains it and its line (seed-spec §6.10); never "<unknown> -- ..." nor a frame
  // without its line.
  static std::vector<std::string> omp_frames(Profile& p) {
    std::vector<std::string> out;
    for (FuncId f = 0; f < p.functions().size(); ++f) {
      const std::string& n = p.functions().at(f).name;
      if ((n.find(" -- OMP parallel region") != std::string::npos || n.find(" -- OMP task") != std::string::npos) &&
          incl(p, f) > 0)
        out.push_back(n);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  // The expert view's names of the frames `user` (omp_frames in the user view): each user name
  // with its outlined function appended, " [fn]", one function per frame. Returns the functions
  // in the order of `user`; switches the profile to the expert view.
  static std::vector<std::string> expert_functions(Profile& p, const std::vector<std::string>& user) {
    p.set_view_mode(ViewMode::kExpert);
    p.function_metrics();
    const std::vector<std::string> expert = omp_frames(p);
    std::vector<std::string> out;
    for (const std::string& u : user) {
      std::vector<std::string> fns;
      for (const std::string& x : expert)
        if (x.rfind(u + " [", 0) == 0 && x.back() == ']') fns.push_back(x.substr(u.size() + 2, x.size() - u.size() - 3));
      EXPECT_EQ(fns.size(), 1u) << "expert names of '" << u << "': " << fmt::format("{}", fmt::join(expert, " | "));
      out.push_back(fns.empty() ? "" : fns.front());
    }
    EXPECT_EQ(expert.size(), user.size()) << fmt::format("{}", fmt::join(expert, " | "));
    return out;
  }
  // The expert view's outlined functions of the program's constructs, checked: with GCC exactly
  // `gcc` (foo._omp_fn.N); with Clang each one the function libomp calls (an ELF symbol
  // .omp_outlined..N for a region, .omp_task_entry..N for a task, `clang_prefix`; never the
  // .omp_outlined._debug__.N that clang -g inlines into it), a different one per construct.
  void expect_outlined(const std::vector<std::string>& got, const std::vector<std::string>& gcc,
                       const std::vector<std::string>& clang_prefix, const Profile& p) const {
    if (is_gcc()) {
      EXPECT_EQ(got, gcc);
      return;
    }
    ASSERT_EQ(got.size(), clang_prefix.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].rfind(clang_prefix[i], 0), 0u) << got[i];
      EXPECT_EQ(got[i].find("_debug__"), std::string::npos) << got[i];
      bool symbol = false;  // a function of the program's symbol table (an address), not inline-only
      for (FuncId f = 0; f < p.functions().size(); ++f)
        symbol = symbol || (p.functions().at(f).name == got[i] && p.functions().at(f).addr != 0);
      EXPECT_TRUE(symbol) << got[i] << " is not a symbol of the program";
      for (size_t j = 0; j < i; ++j) EXPECT_NE(got[i], got[j]);
    }
  }
  // The source line in a "... from line N" name, 0 if none.
  static uint32_t line_of(const std::string& name) {
    auto at = name.find(" from line ");
    return at == std::string::npos ? 0 : uint32_t(std::stoul(name.substr(at + 11)));
  }
  // Sum of the task records' durations of the tasks for which `pick(index)` holds.
  template <class Pick>
  static double task_ns(const reader::Experiment& e, Pick pick) {
    double sum = 0;
    for (size_t i = 0; i < e.omp_tasks.size(); ++i)
      if (pick(i)) sum += double(e.omp_tasks[i].duration_ns);
    return sum;
  }
  // The task records checked against the region records: each task in a recorded region, begun
  // after its creation, recorded through this program's runtime. Returns the number of tasks
  // per region id (every region, 0 for one without tasks).
  std::map<uint64_t, int> tasks_per_region(const reader::Experiment& e) const {
    std::map<uint64_t, int> per_region;
    for (const auto& r : e.omp_regions) per_region[r.region_id] = 0;
    for (const auto& t : e.omp_tasks) {
      EXPECT_TRUE(per_region.count(t.region_id)) << "task " << t.task_id << " in region " << t.region_id;
      ++per_region[t.region_id];
      EXPECT_GE(t.tstamp_ns, t.create_ns) << "task " << t.task_id;
      EXPECT_EQ(t.runtime, is_gcc() ? format::kOmpRuntimeGomp : format::kOmpRuntimeOmpt) << "task " << t.task_id;
    }
    return per_region;
  }
  bool is_gcc() const { return GetParam() == "omp_imbalance_gcc"; }
};

}  // namespace erkit::e2e
